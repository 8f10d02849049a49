import type { SparqlResults } from '../../../../src/handlers/sparql/SparqlResults';
import { CSV, parseJsonResults, SPARQL_JSON, SPARQL_XML, SparqlResultsFormatError, TSV, writeCsvResults, writeJsonResults,
  writeResults, writeTsvResults, writeXmlResults } from '../../../../src/handlers/sparql/SparqlResults';
import { rejection } from '../../../support/rejection';

const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** Bindings with one of each kind of term, and an unbound variable in the second row. */
const RESULTS: SparqlResults = { kind: 'bindings', vars: [ 's', 'o' ], rows: [
  { s: { type: 'uri', value: 'https://pod.example/a b' }, o: { type: 'literal', value: 'say "hi",\nthen\tgo', 'xml:lang': 'en' }},
  { s: { type: 'bnode', value: 'b0' }},
  { s: { type: 'uri', value: 'https://pod.example/n' }, o: { type: 'literal', value: '42', datatype: `${XSD}integer` }},
  { s: { type: 'uri', value: 'https://pod.example/x' }, o: { type: 'literal', value: '<&>' }},
]};

describe('SparqlResults', (): void => {
  describe('parseJsonResults', (): void => {
    it('reads bindings, normalising Virtuoso\'s typed-literal and dropping the datatype of plain strings', (): void => {
      const results = parseJsonResults(JSON.stringify({ head: { vars: [ 's', 'o' ]}, results: { bindings: [
        { s: { type: 'uri', value: 'https://pod.example/a' }, o: { type: 'typed-literal', value: '1', datatype: `${XSD}integer` }},
        { s: { type: 'bnode', value: 'b1' }, o: { type: 'literal', value: 'x', datatype: `${XSD}string` }},
        { o: { type: 'literal', value: 'hallo', 'xml:lang': 'de', datatype: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString' }},
      ]}}));
      expect(results).toEqual({ kind: 'bindings', vars: [ 's', 'o' ], rows: [
        { s: { type: 'uri', value: 'https://pod.example/a' }, o: { type: 'literal', value: '1', datatype: `${XSD}integer` }},
        { s: { type: 'bnode', value: 'b1' }, o: { type: 'literal', value: 'x' }},
        { o: { type: 'literal', value: 'hallo', 'xml:lang': 'de' }},
      ]});
    });

    it('keeps variables a store left out of the head', (): void => {
      const results = parseJsonResults(JSON.stringify({ results: { bindings: [ { late: { type: 'literal', value: 1 }} ]}}));
      expect(results).toEqual({ kind: 'bindings', vars: [ 'late' ], rows: [ { late: { type: 'literal', value: '1' }} ]});
    });

    it.each([ [ true, true ], [ 'true', true ], [ 1, true ], [ '1', true ], [ false, false ], [ 'false', false ], [ 0, false ] ])(
      'reads the ASK answer %j as %j', (raw, value): void => {
        expect(parseJsonResults(JSON.stringify({ head: {}, boolean: raw }))).toEqual({ kind: 'boolean', value });
      },
    );

    it.each([
      [ 'not json', 'The store did not answer valid JSON results.' ],
      [ 'null', 'The store did not answer a JSON results object.' ],
      [ '{"head":{}}', 'The store answered JSON without results.' ],
      [ '{"results":{"bindings":[{"s":{"type":"triple","value":"x"}}]}}', 'Unknown RDF term type in the store\'s results: triple' ],
    ])('refuses %j', async(body, message): Promise<void> => {
      const error = await rejection((async(): Promise<unknown> => parseJsonResults(body))());
      expect(error).toBeInstanceOf(SparqlResultsFormatError);
      expect((error as Error).message).toBe(message);
    });
  });

  it('writes SPARQL JSON that reads back the same', (): void => {
    expect(parseJsonResults(writeJsonResults(RESULTS))).toEqual(RESULTS);
    expect(JSON.parse(writeJsonResults({ kind: 'boolean', value: true }))).toEqual({ head: {}, boolean: true });
  });

  it('writes SPARQL XML, escaped, leaving unbound variables out and dropping what XML cannot carry', (): void => {
    const xml = writeXmlResults(RESULTS);
    expect(xml).toContain('<variable name="s"/>');
    expect(xml).toContain('<binding name="o"><literal xml:lang="en">say &quot;hi&quot;,\nthen\tgo</literal></binding>');
    expect(xml).toContain('<binding name="s"><bnode>b0</bnode></binding>\n    </result>');
    expect(xml).toContain(`<literal datatype="${XSD}integer">42</literal>`);
    expect(xml).toContain('<literal>&lt;&amp;&gt;</literal>');
    expect(writeXmlResults({ kind: 'bindings', vars: [ 'v' ], rows: [ { v: { type: 'literal', value: 'a\u0001b' }} ]}))
      .toContain('<literal>ab</literal>');
    expect(writeXmlResults({ kind: 'boolean', value: false })).toContain('  <head/>\n  <boolean>false</boolean>');
  });

  it('writes SPARQL CSV: plain values, quoted when needed, CRLF line ends', (): void => {
    expect(writeCsvResults(RESULTS)).toBe('s,o\r\nhttps://pod.example/a b,"say ""hi"",\nthen\tgo"\r\n_:b0,\r\n' +
      'https://pod.example/n,42\r\nhttps://pod.example/x,<&>\r\n');
    expect(writeCsvResults({ kind: 'boolean', value: true })).toBe('_askResult\r\ntrue\r\n');
  });

  it('writes SPARQL TSV: terms in Turtle syntax, escaped, LF line ends', (): void => {
    expect(writeTsvResults(RESULTS)).toBe('?s\t?o\n<https://pod.example/a\\u0020b>\t"say \\"hi\\",\\nthen\\tgo"@en\n_:b0\t\n' +
      `<https://pod.example/n>\t"42"^^<${XSD}integer>\n<https://pod.example/x>\t"<&>"\n`);
    expect(writeTsvResults({ kind: 'boolean', value: false })).toBe('?_askResult\nfalse\n');
  });

  it('writes the media type asked for, JSON for any other', (): void => {
    expect(writeResults(RESULTS, SPARQL_XML)).toBe(writeXmlResults(RESULTS));
    expect(writeResults(RESULTS, CSV)).toBe(writeCsvResults(RESULTS));
    expect(writeResults(RESULTS, TSV)).toBe(writeTsvResults(RESULTS));
    expect(writeResults(RESULTS, SPARQL_JSON)).toBe(writeJsonResults(RESULTS));
    expect(writeResults(RESULTS, 'text/plain')).toBe(writeJsonResults(RESULTS));
  });
});
