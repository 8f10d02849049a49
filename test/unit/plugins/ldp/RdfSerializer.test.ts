import { DataFactory, Parser } from 'n3';
import type { JsonObject } from '../../../../src/plugins/ldp/Contexts';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { N_TRIPLES, RdfSerializer, TURTLE } from '../../../../src/plugins/ldp/RdfSerializer';

const { blankNode, literal, namedNode, quad } = DataFactory;

const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const NOTE = `${BASE}notes/n1`;
const NOTE_QUADS = [
  quad(namedNode(NOTE), namedNode(`${RDF}type`), namedNode(`${AS}Note`)),
  quad(namedNode(NOTE), namedNode(`${AS}content`), literal('hello')),
  quad(namedNode(NOTE), namedNode('http://purl.org/dc/terms/modified'), literal('2026-01-01T00:00:00Z',
    namedNode('http://www.w3.org/2001/XMLSchema#dateTime'))),
];

describe('RdfSerializer', (): void => {
  const serializer = new RdfSerializer(BASE, new DocumentLoader(BASE));

  it('names this server\'s context in documents, first', async(): Promise<void> => {
    expect(serializer.contextReference).toBe(`${BASE}context.json`);
    const document = await serializer.toJsonLd(NOTE_QUADS, NOTE);
    expect(Object.keys(document)[0]).toBe('@context');
    expect(document).toMatchObject({ '@context': `${BASE}context.json`, id: NOTE, type: 'Note', content: 'hello' });
  });

  it('compacts a node for embedding without a context', async(): Promise<void> => {
    const node = await serializer.compactNode(NOTE_QUADS, NOTE);
    expect(node['@context']).toBeUndefined();
    expect(node).toMatchObject({ id: NOTE, content: 'hello' });
  });

  it('falls back to jsonld.js for shapes the fast compactor leaves out', async(): Promise<void> => {
    const head = blankNode('l1');
    const node = await serializer.compactNode([
      quad(namedNode(NOTE), namedNode('https://vocab.example/steps'), head),
      quad(head, namedNode(`${RDF}first`), literal('one')),
      quad(head, namedNode(`${RDF}rest`), namedNode(`${RDF}nil`)),
    ], NOTE);
    expect(node.id).toBe(NOTE);
    expect(JSON.stringify(node)).toContain('"@list":["one"]');
  });

  it('compacts IRIs with the context\'s terms and prefixes', (): void => {
    expect(serializer.compactIri(`${AS}Note`)).toBe('Note');
    expect(serializer.compactIri('http://www.w3.org/ns/ldp#contains')).toBe('ldp:contains');
    expect(serializer.compactIri('https://elsewhere.example/x')).toBe('https://elsewhere.example/x');
  });

  it('writes Turtle with prefixes and N-Triples, both giving back the same triples', async(): Promise<void> => {
    const other = quad(namedNode(`${BASE}notes/a`), namedNode(`${AS}content`), literal('first'));
    const quads = [ ...NOTE_QUADS, other ];
    const turtle = await serializer.toText(quads, TURTLE);
    expect(turtle).toContain('@prefix as: <https://www.w3.org/ns/activitystreams#>');
    const triples = await serializer.toText(quads, N_TRIPLES);
    expect(triples).not.toContain('@prefix');
    for (const text of [ turtle, triples ]) {
      const parsed = new Parser().parse(text);
      expect(parsed).toHaveLength(quads.length);
      expect(quads.every((entry): boolean => parsed.some((read): boolean => read.equals(entry)))).toBe(true);
    }
    // Grouped by subject: the `notes/a` triple comes before those of `notes/n1`.
    const lines = triples.trim().split('\n');
    expect(lines[0]).toContain(`<${BASE}notes/a>`);
  });

  it('keeps the body of a compacted document apart from the caller\'s', async(): Promise<void> => {
    const first = await serializer.toJsonLd(NOTE_QUADS, NOTE);
    (first as JsonObject).content = 'changed';
    expect((await serializer.toJsonLd(NOTE_QUADS, NOTE)).content).toBe('hello');
  });
});
