import type { Literal, Quad, Term } from '@rdfjs/types';
import { DataFactory, Parser as N3Parser } from 'n3';
import {
  escapeString,
  InvalidTermError,
  isValidIri,
  sparqlGraphBlock,
  sparqlIri,
  sparqlLiteral,
  sparqlTerm,
  sparqlTriple,
} from '../../../src/storage/SparqlTerms';

// sparqljs ships no ES module interop and its types do not cover every result field we read.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Parser: SparqlParser } = require('sparqljs') as { Parser: new() => { parse: (text: string) => unknown } };

const { namedNode, literal, blankNode, variable, defaultGraph, quad } = DataFactory;

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';
const S = namedNode('http://example.org/s');
const P = namedNode('http://example.org/p');
const G = namedNode('http://example.org/graph');

/** Parses one N-Triples line with n3 (strict N-Triples grammar) and returns its only quad. */
function parseNTriples(line: string): Quad {
  const quads = new N3Parser({ format: 'N-Triples' }).parse(`${line}\n`);
  expect(quads).toHaveLength(1);
  return quads[0];
}

/** The N-Triples line for `<s> <p> literal`, parsed back by n3: the literal that n3 reads. */
function roundTripLiteral(term: Literal): Literal {
  const line = sparqlTriple(quad(S, P, term));
  const parsed = parseNTriples(line);
  expect(parsed.subject.equals(S)).toBe(true);
  expect(parsed.predicate.equals(P)).toBe(true);
  expect(parsed.object.termType).toBe('Literal');
  return parsed.object as Literal;
}

interface ParsedTriple {
  subject: { termType: string; value: string };
  predicate: { termType: string; value: string };
  object: { termType: string; value: string; language?: string; datatype?: { value: string } };
}

interface ParsedUpdate {
  type: string;
  updates: {
    updateType: string;
    insert?: { type: string; name?: { value: string }; triples: ParsedTriple[] }[];
    delete?: unknown[];
  }[];
}

/** `INSERT DATA { GRAPH <g> { ... } }` built with sparqlGraphBlock, parsed by sparqljs. */
function parseInsert(graph: typeof G, quads: Pick<Quad, 'subject' | 'predicate' | 'object'>[]): ParsedUpdate {
  const text = `INSERT DATA { ${sparqlGraphBlock(graph, quads)} }`;
  return new SparqlParser().parse(text) as ParsedUpdate;
}

/** Asserts that the update is exactly one INSERT DATA of exactly the one given triple in graph G. */
function expectSingleInsert(update: ParsedUpdate, expected: { subject: string; predicate: string; object: Literal }): void {
  expect(update.type).toBe('update');
  expect(update.updates).toHaveLength(1);
  const [ operation ] = update.updates;
  expect(operation.updateType).toBe('insert');
  expect(operation.delete).toBeUndefined();
  expect(operation.insert).toHaveLength(1);
  const [ block ] = operation.insert!;
  expect(block.type).toBe('graph');
  expect(block.name?.value).toBe(G.value);
  expect(block.triples).toHaveLength(1);
  const [ triple ] = block.triples;
  expect(triple.subject).toMatchObject({ termType: 'NamedNode', value: expected.subject });
  expect(triple.predicate).toMatchObject({ termType: 'NamedNode', value: expected.predicate });
  expect(triple.object.termType).toBe('Literal');
  expect(triple.object.value).toBe(expected.object.value);
  expect(triple.object.language ?? '').toBe(expected.object.language);
  expect(triple.object.datatype?.value).toBe(expected.object.datatype.value);
}

/** Small deterministic PRNG (mulberry32) so the fuzz cases are reproducible. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return (): number => {
    state = (state + 0x6D2B79F5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('SparqlTerms', (): void => {
  describe('IRIs', (): void => {
    it.each([
      [ 'http://example.org/a' ],
      [ 'https://example.org/a/b?c=d&e=f#frag' ],
      [ 'urn:uuid:0190f6f0-0000-7000-8000-000000000000' ],
      [ 'mailto:someone@example.org' ],
      [ 'https://例え.jp/パス/ñ' ],
      [ 'http://example.org/%20encoded%3E' ],
      [ 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK' ],
    ])('accepts the absolute IRI %j and writes it between angle brackets', (iri): void => {
      expect(isValidIri(iri)).toBe(true);
      expect(sparqlIri(iri)).toBe(`<${iri}>`);
      // The text is an IRIREF that a strict parser reads back as the same IRI.
      const parsed = parseNTriples(`${sparqlIri(iri)} <http://example.org/p> "x" .`);
      expect(parsed.subject).toMatchObject({ termType: 'NamedNode', value: iri });
    });

    it.each([
      [ 'closing angle bracket', 'http://example.org/a>b' ],
      [ 'opening angle bracket', 'http://example.org/a<b' ],
      [ 'space', 'http://example.org/a b' ],
      [ 'tab', 'http://example.org/a\tb' ],
      [ 'newline', 'http://example.org/a\nb' ],
      [ 'NUL', 'http://example.org/a\u0000b' ],
      [ 'double quote', 'http://example.org/"a"' ],
      [ 'opening brace', 'http://example.org/{a' ],
      [ 'closing brace', 'http://example.org/a}' ],
      [ 'pipe', 'http://example.org/a|b' ],
      [ 'caret', 'http://example.org/a^b' ],
      [ 'backtick', 'http://example.org/a`b' ],
      [ 'backslash', 'http://example.org/a\\b' ],
      [ 'backslash u escape', 'http://example.org/a\\u003E' ],
      [ 'no scheme (relative path)', 'relative/path' ],
      [ 'no scheme (absolute path)', '/absolute/path' ],
      [ 'no scheme (network path)', '//example.org/a' ],
      [ 'no scheme (fragment)', '#frag' ],
      [ 'empty string', '' ],
      [ 'scheme starting with a digit', '1http://example.org/' ],
      [ 'empty scheme', ':example' ],
      [ 'injection attempt', 'http://example.org/a> } ; DROP ALL ; INSERT DATA { <http://example.org/b' ],
      [ 'second fragment mark', 'https://blog.example/post/#activity#activity' ],
    ])('refuses an IRI with a %s', (_description, iri): void => {
      expect(isValidIri(iri)).toBe(false);
      expect((): string => sparqlIri(iri)).toThrow(InvalidTermError);
      expect((): string => sparqlTerm(namedNode(iri))).toThrow(InvalidTermError);
    });

    it('refuses an invalid IRI in every position: subject, predicate, object, graph and datatype', (): void => {
      const bad = namedNode('http://example.org/a>b');
      expect((): string => sparqlTriple(quad(bad, P, literal('x')))).toThrow(InvalidTermError);
      expect((): string => sparqlTriple(quad(S, bad, literal('x')))).toThrow(InvalidTermError);
      expect((): string => sparqlTriple(quad(S, P, bad))).toThrow(InvalidTermError);
      expect((): string => sparqlGraphBlock(bad, [ quad(S, P, literal('x')) ])).toThrow(InvalidTermError);
      expect((): string => sparqlLiteral(literal('5', bad))).toThrow(InvalidTermError);
    });

    it('names the error InvalidTermError and keeps it an Error', (): void => {
      let caught: unknown;
      try {
        sparqlIri('not an iri');
      } catch (error: unknown) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(Error);
      expect(caught).toBeInstanceOf(InvalidTermError);
      expect((caught as Error).name).toBe('InvalidTermError');
    });
  });

  describe('string literals', (): void => {
    const controlCharacters = Array.from({ length: 0x20 }, (_, code): string => String.fromCharCode(code)).join('');

    it.each([
      [ 'plain text', 'hello world' ],
      [ 'empty string', '' ],
      [ 'double quotes', 'she said "hi" and "bye"' ],
      [ 'single quotes', 'it\'s \'quoted\'' ],
      [ 'triple quotes', '"""long""" and \'\'\'long\'\'\'' ],
      [ 'backslashes', 'C:\\path\\to\\file \\ \\\\' ],
      [ 'text that looks like an escape', 'literally \\u0022 and \\n and \\" here' ],
      [ 'a trailing backslash', 'ends with \\' ],
      [ 'newlines', 'line 1\nline 2\r\nline 3\r' ],
      [ 'tab, backspace and form feed', 'a\tb\bc\fd' ],
      [ 'every C0 control character', controlCharacters ],
      [ 'DEL', 'a\u007Fb' ],
      [ 'C1 controls and line/paragraph separators', '\u0085\u009F\u2028\u2029' ],
      [ 'emoji (astral plane, surrogate pairs)', '😀 👍🏽 👩‍👩‍👧 🏳️‍🌈' ],
      [ 'astral CJK', '𠀀𪚥' ],
      [ 'combining characters and RTL text', 'e\u0301 \u202Eabc\u202C שלום' ],
      [ 'BOM and noncharacters', '\uFEFF\uFFFE\uFFFF' ],
      [ 'comment and statement characters', '# not a comment . ; , [ ] ( ) { } <x> _:b ?v $v' ],
    ])('round-trips %s through an N-Triples line', (_description, value): void => {
      const parsed = roundTripLiteral(literal(value));
      expect(parsed.value).toBe(value);
      expect(parsed.language).toBe('');
      expect(parsed.datatype.value).toBe(`${XSD}string`);
    });

    it('writes one line of printable text: no raw control characters or lone surrogates remain', (): void => {
      const value = `${controlCharacters}\u007F\uD800\uDFFF"\\`;
      const text = sparqlLiteral(literal(value));
      // Only the delimiting quotes are unescaped double quotes.
      expect(text.startsWith('"')).toBe(true);
      expect(text.endsWith('"')).toBe(true);
      // eslint-disable-next-line no-control-regex
      expect(text).not.toMatch(/[\u0000-\u001F\u007F]/u);
      expect(text).not.toMatch(/[\uD800-\uDFFF]/u);
      expect(text.slice(1, -1)).not.toMatch(/(?<!\\)(?:\\\\)*"/u);
    });

    it('escapeString is the body sparqlLiteral writes for plain strings', (): void => {
      const value = 'a "b" \\ c\n';
      expect(sparqlLiteral(literal(value))).toBe(`"${escapeString(value)}"`);
    });

    it('round-trips random strings made of the characters parsers care about', (): void => {
      const pool = [ '"', '\'', '\\', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u0001', '\u001F', '\u007F',
        '{', '}', '<', '>', '#', '.', ';', 'u', 'U', '0', 'a', ' ', 'é', '😀', '\uD800', '\uDC00', '\u2028' ];
      const random = prng(0xF3DB0D);
      for (let i = 0; i < 300; i++) {
        const length = Math.floor(random() * 20);
        let value = '';
        for (let j = 0; j < length; j++) {
          value += pool[Math.floor(random() * pool.length)];
        }
        // Lone surrogates (possible in the pool) are written as U+FFFD, as the dedicated test below checks.
        expect(roundTripLiteral(literal(value)).value).toBe((value as unknown as { toWellFormed(): string }).toWellFormed());
      }
    });
  });

  describe('language-tagged literals', (): void => {
    it.each([
      [ 'en' ],
      [ 'en-US' ],
      [ 'zh-Hant-TW' ],
      [ 'de-CH-1901' ],
      [ 'x-private' ],
    ])('keeps the valid language tag %s', (tag): void => {
      const text = sparqlLiteral(literal('text "quoted"', tag));
      // n3's DataFactory lowercases tags; tags are case-insensitive (BCP 47).
      expect(text.toLowerCase()).toBe(`"text \\"quoted\\""@${tag.toLowerCase()}`);
      const parsed = roundTripLiteral(literal('text "quoted"', tag));
      expect(parsed.value).toBe('text "quoted"');
      expect(parsed.language.toLowerCase()).toBe(tag.toLowerCase());
      expect(parsed.datatype.value).toBe(RDF_LANG_STRING);
    });

    it.each([
      [ 'a space', 'en US' ],
      [ 'a quote', 'en"' ],
      [ 'a trailing dash', 'en-' ],
      [ 'a leading dash', '-en' ],
      [ 'an empty subtag', 'en--us' ],
      [ 'an at sign', 'en@fr' ],
      [ 'a newline', 'en\n' ],
      [ 'an underscore', 'en_US' ],
      [ 'a digit first', '1en' ],
      [ 'non-ASCII letters', 'français' ],
      [ 'an injection attempt', 'en . } ; DROP ALL ; INSERT DATA { <http://a/b> <http://a/c> "x' ],
    ])('refuses a language tag with %s', (_description, tag): void => {
      // n3's DataFactory would lowercase the tag; build the term by hand to pass it unchanged.
      const term = { termType: 'Literal', value: 'x', language: tag, datatype: namedNode(RDF_LANG_STRING),
        equals: (): boolean => false } as unknown as Literal;
      expect((): string => sparqlLiteral(term)).toThrow(InvalidTermError);
      expect((): string => sparqlTerm(term)).toThrow(InvalidTermError);
    });
  });

  describe('typed literals', (): void => {
    it.each([
      [ '42', `${XSD}integer` ],
      [ '-1.5E3', `${XSD}double` ],
      [ 'true', `${XSD}boolean` ],
      [ '2024-05-01T12:00:00Z', `${XSD}dateTime` ],
      [ '<b>"html"</b>\n', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#HTML' ],
      [ 'custom', 'https://example.org/datatypes#custom' ],
    ])('writes %j with the datatype %s and reads back the same typed literal', (value, datatype): void => {
      const text = sparqlLiteral(literal(value, namedNode(datatype)));
      expect(text.endsWith(`^^<${datatype}>`)).toBe(true);
      const parsed = roundTripLiteral(literal(value, namedNode(datatype)));
      expect(parsed.value).toBe(value);
      expect(parsed.datatype.value).toBe(datatype);
      expect(parsed.language).toBe('');
    });

    it('writes xsd:string literals without a datatype suffix (same RDF term)', (): void => {
      const text = sparqlLiteral(literal('x', namedNode(`${XSD}string`)));
      expect(text).toBe('"x"');
      expect(roundTripLiteral(literal('x', namedNode(`${XSD}string`))).datatype.value).toBe(`${XSD}string`);
    });

    it('refuses a datatype that is not a valid IRI', (): void => {
      // Hand-made terms: n3's Literal cannot hold a datatype IRI with a quote in it.
      const typed = (datatype: string): Literal => ({ termType: 'Literal', value: '1', language: '',
        datatype: namedNode(datatype), equals: (): boolean => false }) as unknown as Literal;
      expect((): string => sparqlLiteral(typed('integer'))).toThrow(InvalidTermError);
      expect((): string => sparqlLiteral(typed(`${XSD}integer> . <http://a/b> <http://a/c> "x`))).toThrow(InvalidTermError);
      expect((): string => sparqlLiteral(typed(`${XSD}integer>`))).toThrow(InvalidTermError);
      // A valid IRI of the same shape is accepted: the refusals above are about the IRI.
      expect(sparqlLiteral(typed(`${XSD}integer`))).toBe(`"1"^^<${XSD}integer>`);
    });
  });

  describe('other terms', (): void => {
    it('writes variables with valid names and refuses others', (): void => {
      expect(sparqlTerm(variable('s_1'))).toBe('?s_1');
      expect((): string => sparqlTerm(variable('s } DROP ALL'))).toThrow(InvalidTermError);
      expect((): string => sparqlTerm(variable(''))).toThrow(InvalidTermError);
      expect((): string => sparqlTerm(variable('1a'))).toThrow(InvalidTermError);
    });

    it('writes plain blank node labels and refuses labels that could break out', (): void => {
      expect(sparqlTerm(blankNode('b0'))).toBe('_:b0');
      expect(sparqlTerm(blankNode('n3-12'))).toBe('_:n3-12');
      for (const label of [ 'a b', 'a}', 'a>', 'a"', '', '-a', '.a', 'a\n', 'a:b' ]) {
        // Hand-made terms: n3's blankNode('') would mint a fresh label instead.
        const term = { termType: 'BlankNode', value: label, equals: (): boolean => false } as unknown as Term;
        expect((): string => sparqlTerm(term)).toThrow(InvalidTermError);
      }
    });

    it('writes only blank node labels that a SPARQL parser reads back as the same node (or refuses them)', (): void => {
      // BLANK_NODE_LABEL may contain '.' but must not end with it: `_:a.` would read as `_:a` followed by
      // the end of the triple.
      for (const label of [ 'a.b', 'a.', 'a..' ]) {
        let text: string;
        try {
          text = sparqlTriple(quad(blankNode(label), P, literal('x')));
        } catch (error: unknown) {
          expect(error).toBeInstanceOf(InvalidTermError);
          continue;
        }
        const update = new SparqlParser().parse(`INSERT DATA { ${text} }`) as ParsedUpdate;
        const triples = update.updates[0].insert![0].triples;
        expect(triples).toHaveLength(1);
        expect(triples[0].subject).toMatchObject({ termType: 'BlankNode' });
      }
    });

    it('refuses the default graph and unknown term types', (): void => {
      expect((): string => sparqlTerm(defaultGraph())).toThrow(InvalidTermError);
      expect((): string => sparqlTerm({ termType: 'Quad', value: '' } as unknown as Term)).toThrow(InvalidTermError);
    });
  });

  describe('graph blocks and injection', (): void => {
    const payloads = [
      '" } ; DROP ALL ; INSERT DATA { <a> <b> "',
      '" } } ; DROP ALL ; INSERT DATA { GRAPH <http://example.org/g2> { <http://a/b> <http://a/c> "',
      '\\" } ; DROP ALL ; #',
      '""" } ; DROP ALL ; INSERT DATA { <a> <b> """',
      '\' } ; DROP ALL ; INSERT DATA { <a> <b> \'',
      'x" . <http://example.org/s> <http://example.org/p> "injected',
      '\\u0022 } ; DROP ALL ; INSERT DATA { <a> <b> \\u0022',
      'x"\n} ; DROP ALL ; # comment\nINSERT DATA { <a> <b> "',
      '"^^<http://www.w3.org/2001/XMLSchema#integer> } ; CLEAR ALL ; INSERT DATA { <a> <b> "',
      '"@en } ; LOAD <http://evil.example/> ; INSERT DATA { <a> <b> "',
    ];

    it.each(payloads.map((payload): [string] => [ payload ]))('keeps %j inside one literal', (payload): void => {
      const object = literal(payload);
      const update = parseInsert(G, [ quad(S, P, object) ]);
      expectSingleInsert(update, { subject: S.value, predicate: P.value, object });
    });

    it('keeps an injection attempt inside a language-tagged literal', (): void => {
      const object = literal(payloads[0], 'en');
      expectSingleInsert(parseInsert(G, [ quad(S, P, object) ]), { subject: S.value, predicate: P.value, object });
    });

    it('keeps an injection attempt inside a typed literal', (): void => {
      const object = literal(payloads[1], namedNode('https://example.org/datatypes#custom'));
      expectSingleInsert(parseInsert(G, [ quad(S, P, object) ]), { subject: S.value, predicate: P.value, object });
    });

    it('writes every quad of a block into the given graph, ignoring the quads\' own graphs', (): void => {
      const other = namedNode('http://example.org/other-graph');
      const quads = [
        quad(S, P, literal('one'), other),
        quad(S, P, namedNode('http://example.org/o')),
        quad(namedNode('http://example.org/s2'), P, literal('2', namedNode(`${XSD}integer`))),
      ];
      const text = sparqlGraphBlock(G, quads);
      expect(text).not.toContain(other.value);
      const update = new SparqlParser().parse(`INSERT DATA { ${text} }`) as ParsedUpdate;
      expect(update.updates).toHaveLength(1);
      const insert = update.updates[0].insert!;
      expect(insert).toHaveLength(1);
      expect(insert[0].name?.value).toBe(G.value);
      expect(insert[0].triples.map((t): string => `${t.subject.value} ${t.object.value}`)).toEqual([
        `${S.value} one`,
        `${S.value} http://example.org/o`,
        'http://example.org/s2 2',
      ]);
      expect(insert[0].triples[2].object.datatype?.value).toBe(`${XSD}integer`);
    });

    it('writes an empty block for no quads', (): void => {
      const update = new SparqlParser().parse(`INSERT DATA { ${sparqlGraphBlock(G, [])} }`) as ParsedUpdate;
      expect(update.updates).toHaveLength(1);
    });

    it('keeps random hostile strings inside one literal of one INSERT DATA', (): void => {
      // Lone surrogates are left out here: see the dedicated test below.
      const pool = [ '"', '\'', '\\', '\n', '\r', '{', '}', '<', '>', '#', '.', ';', ' ', 'u', '0', '2', 'D', 'R',
        'O', 'P', ' ALL', 'INSERT DATA', 'GRAPH', '😀', '\u0000', '\u007F' ];
      const random = prng(0x5EED);
      for (let i = 0; i < 200; i++) {
        const length = 1 + Math.floor(random() * 25);
        let value = '';
        for (let j = 0; j < length; j++) {
          value += pool[Math.floor(random() * pool.length)];
        }
        const object = literal(value);
        expectSingleInsert(parseInsert(G, [ quad(S, P, object) ]), { subject: S.value, predicate: P.value, object });
      }
    });

    // A JSON body can carry a lone surrogate ("\ud800" is valid JSON). RDF strings cannot hold one, and
    // `\uD800` is refused by SPARQL parsers (sparqljs, and Oxigraph, the embedded store), so the whole update
    // fails in the store. Whether to refuse such literals (InvalidTermError → 400) or replace the surrogate
    // (U+FFFD) is for the lead to decide; either makes this test pass. Doing so breaks the n3 round-trip
    // cases for lone surrogates above, which mirror the current contract.
    it('writes lone surrogates only as text a SPARQL parser accepts (or refuses them)', (): void => {
      for (const value of [ 'a\uD800b', '\uDC00', 'end\uD83D' ]) {
        let text: string;
        try {
          text = `INSERT DATA { ${sparqlGraphBlock(G, [ quad(S, P, literal(value)) ])} }`;
        } catch (error: unknown) {
          expect(error).toBeInstanceOf(InvalidTermError);
          continue;
        }
        expect((): unknown => new SparqlParser().parse(text)).not.toThrow();
      }
    });
  });
});
