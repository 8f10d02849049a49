import type { Quad } from '@rdfjs/types';
import jsonld from 'jsonld';
import { DataFactory } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import type { JsonObject } from '../../../../src/plugins/ldp/Contexts';
import { ACTIVITYSTREAMS_CONTEXT_URL, SECURITY_V1_CONTEXT_URL, fedpodContext } from '../../../../src/plugins/ldp/Contexts';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdCompactor, UnsupportedShapeError } from '../../../../src/plugins/ldp/JsonLdCompactor';
import { fromJsonLdQuads, type JsonLdQuad } from '../../../../src/plugins/ldp/JsonLdParser';

const { namedNode, blankNode, literal, quad } = DataFactory;

const BASE = 'http://localhost:3000/';
const FEDPOD_CONTEXT_URL = `${BASE}context.json`;
const AS = 'https://www.w3.org/ns/activitystreams#';
const PUBLIC = `${AS}Public`;
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const LDP = 'http://www.w3.org/ns/ldp#';
const SCHEMA = 'http://schema.org/';
const NOTE = `${BASE}notes/0190f6f0-0000-7000-8000-000000000001`;
const ALICE = `${BASE}users/alice`;
const BOB = 'https://remote.example/users/bob';

const loader = new DocumentLoader(BASE);
const context = fedpodContext()['@context'] as JsonObject;

/** jsonld.js `toRDF` with the bundled contexts, as n3 quads (default graph only). */
async function toQuads(document: JsonObject): Promise<Quad[]> {
  const raw = await jsonld.toRDF(document as jsonld.JsonLdDocument,
    { documentLoader: loader.load as never } as jsonld.Options.ToRdf) as unknown as JsonLdQuad[];
  for (const entry of raw) {
    expect(entry.graph.termType).toBe('DefaultGraph');
  }
  return fromJsonLdQuads(raw);
}

/** Expands compacted output (without @context) with Fedpod's context, as the compactor's readers do. */
async function expandCompacted(output: JsonObject): Promise<Quad[]> {
  expect(output['@context']).toBeUndefined();
  return toQuads({ '@context': context, ...output });
}

/** Readable diff for failures: the quads as sorted N-Triples-like lines (blank node labels dropped). */
function describeQuads(quads: readonly Quad[]): string[] {
  const show = (term: Quad['object']): string => {
    if (term.termType === 'Literal') {
      return `${JSON.stringify(term.value)}${term.language ? `@${term.language}` : `^^${term.datatype.value}`}`;
    }
    return term.termType === 'BlankNode' ? '_:' : `<${term.value}>`;
  };
  return quads.map((entry): string => `${show(entry.subject)} <${entry.predicate.value}> ${show(entry.object)}`).sort();
}

const documents: [string, JsonObject, string][] = [
  [ 'a simple Note', {
    '@context': ACTIVITYSTREAMS_CONTEXT_URL,
    id: NOTE,
    type: 'Note',
    name: 'Hello',
    content: '<p>Hello, <em>world</em></p>',
  }, NOTE ],
  [ 'a federated Note with audience, author, date and nested tags', {
    '@context': ACTIVITYSTREAMS_CONTEXT_URL,
    id: NOTE,
    type: 'Note',
    name: 'Tagged',
    content: 'Hi @bob #fedpod',
    published: '2024-05-01T12:34:56Z',
    updated: '2024-05-02T00:00:00.123Z',
    to: [ PUBLIC, `${ALICE}/followers` ],
    cc: [ BOB ],
    attributedTo: ALICE,
    inReplyTo: `${BOB}/statuses/1`,
    url: { type: 'Link', href: `${BASE}@alice/1`, mediaType: 'text/html' },
    tag: [
      { type: 'Mention', href: BOB, name: '@bob@remote.example' },
      { type: `${AS}Hashtag`, href: `${BASE}tags/fedpod`, name: '#fedpod' },
    ],
    attachment: [{ type: 'Image', url: `${BASE}media/1.png`, mediaType: 'image/png', width: 640, height: 480 }],
  }, NOTE ],
  [ 'an actor with a publicKey (security context)', {
    '@context': [ ACTIVITYSTREAMS_CONTEXT_URL, SECURITY_V1_CONTEXT_URL ],
    id: ALICE,
    type: 'Person',
    preferredUsername: 'alice',
    name: 'Alice',
    summary: 'Line 1\nLine "2" \\ end',
    inbox: `${ALICE}/inbox`,
    outbox: `${ALICE}/outbox`,
    followers: `${ALICE}/followers`,
    icon: { type: 'Image', url: `${BASE}media/alice.png` },
    publicKey: {
      id: `${ALICE}#main-key`,
      owner: ALICE,
      publicKeyPem: '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----\n',
    },
  }, ALICE ],
  [ 'language-tagged content and language maps', {
    '@context': ACTIVITYSTREAMS_CONTEXT_URL,
    id: NOTE,
    type: 'Note',
    content: { '@value': 'Bonjour', '@language': 'fr' },
    nameMap: { en: 'Hello', 'de-CH': 'Grüezi', ja: 'こんにちは' },
    summaryMap: { en: 'A summary' },
    [`${AS}published`]: { '@value': 'yesterday', '@language': 'en' },
  }, NOTE ],
  [ 'integers, doubles and booleans, coerced and native', {
    '@context': ACTIVITYSTREAMS_CONTEXT_URL,
    id: `${BASE}collections/1`,
    type: 'Collection',
    totalItems: 3,
    startIndex: '0',
    [`${AS}sensitive`]: false,
    [`${SCHEMA}ratingValue`]: 5,
    [`${SCHEMA}price`]: 1.5,
    [`${SCHEMA}isFamilyFriendly`]: true,
    [`${SCHEMA}negative`]: -42,
    duration: 'PT2H30M',
  }, `${BASE}collections/1` ],
  [ 'unknown vocabularies (schema.org, Dublin Core, FOAF) with nested nodes', {
    '@context': FEDPOD_CONTEXT_URL,
    id: NOTE,
    type: [ 'Note', `${SCHEMA}CreativeWork` ],
    'dc:title': 'A title',
    'dc:created': { '@value': '2024-05-01', '@type': 'xsd:date' },
    'foaf:maker': { id: ALICE },
    [`${SCHEMA}author`]: { type: `${SCHEMA}Person`, [`${SCHEMA}name`]: 'Alice A.', [`${SCHEMA}url`]: { id: ALICE } },
    [`${SCHEMA}keywords`]: [ 'one', 'two', 'three' ],
    [`${SCHEMA}custom`]: { '@value': 'x', '@type': 'https://example.org/datatypes#custom' },
    [`${SCHEMA}html`]: { '@value': '<b>bold</b>', '@type': `${RDF}HTML` },
  }, NOTE ],
  [ 'multiple types, including IRIs outside any prefix', {
    '@context': FEDPOD_CONTEXT_URL,
    id: NOTE,
    type: [ 'Note', 'Article', 'ldp:Resource', 'https://example.org/types/Thing', 'urn:example:type' ],
    name: 'Many types',
  }, NOTE ],
  [ 'an LDP container with ldp and as IRIs as values and keys', {
    '@context': FEDPOD_CONTEXT_URL,
    id: `${BASE}notes/`,
    type: [ 'ldp:BasicContainer', 'ldp:Container' ],
    'ldp:contains': [{ id: `${BASE}notes/a` }, { id: `${BASE}notes/b` }],
    'dc:modified': { '@value': '2024-05-01T12:00:00.000Z', '@type': 'xsd:dateTime' },
    'posix:size': 2,
    [`${LDP}inbox`]: { id: `${BASE}inbox/` },
    'rdfs:seeAlso': { id: `${AS}Public` },
  }, `${BASE}notes/` ],
  [ 'an activity embedding an object that points back to the activity and its author', {
    '@context': ACTIVITYSTREAMS_CONTEXT_URL,
    id: `${BASE}activities/1`,
    type: 'Create',
    actor: { id: ALICE, type: 'Person', name: 'Alice', outbox: `${BASE}activities/1` },
    to: [ PUBLIC ],
    object: {
      id: NOTE,
      type: 'Note',
      content: 'embedded',
      attributedTo: ALICE,
      replies: { type: 'Collection', totalItems: 0, first: { type: 'CollectionPage', partOf: `${NOTE}/replies` } },
      context: `${BASE}activities/1`,
    },
  }, `${BASE}activities/1` ],
  [ 'literals that disagree with the term coercion of their predicate', {
    '@context': ACTIVITYSTREAMS_CONTEXT_URL,
    id: NOTE,
    type: 'Note',
    published: { '@value': 'not a date' },
    updated: { '@value': '2024-05-01', '@type': 'xsd:date' },
    to: { '@value': 'not an IRI' },
    width: { '@value': '7', '@type': 'xsd:integer' },
    name: { '@value': '3', '@type': 'xsd:integer' },
    url: [ { id: `${BASE}a` }, { '@value': 'plain' } ],
  }, NOTE ],
  [ 'JSON literals and awkward strings', {
    '@context': [ ACTIVITYSTREAMS_CONTEXT_URL, { data: { '@id': `${SCHEMA}data`, '@type': '@json' } } ],
    id: NOTE,
    type: 'Note',
    data: { b: [ 1, 2, { c: null } ], a: 'x' },
    content: '"quotes" \\ \u0000 \u2028 😀 e\u0301',
    name: '',
  }, NOTE ],
];

describe('JsonLdCompactor', (): void => {
  const compactor = new JsonLdCompactor(context);

  describe('round trip through jsonld.js', (): void => {
    it.each(documents)('expands the compacted form of %s back to the same quads', async(_name, document, root): Promise<void> => {
      const input = await toQuads(document);
      expect(input.length).toBeGreaterThan(1);
      const output = compactor.compact(input, root);
      expect(output.id).toBe(root);
      const back = await expandCompacted(output);
      // Same size and isomorphic (blank node labels may differ).
      expect(describeQuads(back)).toEqual(describeQuads(input));
      expect(isomorphic(back, input)).toBe(true);
    });

    it('writes a count (totalItems) as a JSON number that expands back to the same typed literal', async(): Promise<void> => {
      const input = await toQuads({ '@context': ACTIVITYSTREAMS_CONTEXT_URL, id: NOTE, type: 'Question', name: 'Tea?',
        oneOf: [ { type: 'Note', name: 'tea', replies: { type: 'Collection', totalItems: 3 }} ]});
      const output = compactor.compact(input, NOTE);
      expect(output.oneOf).toMatchObject({ replies: { totalItems: 3 }});
      expect(isomorphic(await expandCompacted(output), input)).toBe(true);
      // As the embedded store gives it back (the same count as an xsd:integer): a count for ActivityPub
      // peers, the exact datatype for LDP clients.
      const stored = input.map((entry): Quad => entry.predicate.value === `${AS}totalItems` ?
        quad(entry.subject, entry.predicate, literal(entry.object.value, namedNode(`${XSD}integer`))) :
        entry);
      expect(new JsonLdCompactor(context, true).compact(stored, NOTE).oneOf).toMatchObject({ replies: { totalItems: 3 }});
      expect(isomorphic(await expandCompacted(compactor.compact(stored, NOTE)), stored)).toBe(true);
    });

    it('uses a check that notices a changed literal, datatype, language or blank node structure', async(): Promise<void> => {
      const input = await toQuads(documents[1][1]);
      const changed = (index: number, object: Quad['object']): Quad[] => input.map((entry, i): Quad =>
        i === index ? quad(entry.subject, entry.predicate, object) : entry);
      const literalIndex = input.findIndex((entry): boolean => entry.object.termType === 'Literal');
      const original = input[literalIndex].object as ReturnType<typeof literal>;
      expect(isomorphic(changed(literalIndex, literal(`${original.value} `, original.datatype)), input)).toBe(false);
      expect(isomorphic(changed(literalIndex, literal(original.value, 'en')), input)).toBe(false);
      expect(isomorphic(changed(literalIndex, literal(original.value, namedNode(`${XSD}token`))), input)).toBe(false);
      const blankIndex = input.findIndex((entry): boolean => entry.object.termType === 'BlankNode');
      expect(isomorphic(changed(blankIndex, blankNode('fresh')), input)).toBe(false);
    });

    it('gives the same result whatever the order of the input quads', async(): Promise<void> => {
      const input = await toQuads(documents[1][1]);
      const reversed = [ ...input ].reverse();
      expect(isomorphic(await expandCompacted(compactor.compact(reversed, NOTE)), input)).toBe(true);
    });
  });

  describe('output shape', (): void => {
    it('gives a simple Note as id, type, name and content terms', async(): Promise<void> => {
      const output = compactor.compact(await toQuads(documents[0][1]), NOTE);
      expect(output).toEqual({ id: NOTE, type: 'Note', name: 'Hello', content: '<p>Hello, <em>world</em></p>' });
    });

    it('writes published as a plain string, IRIs as absolute strings and nested nodes embedded', async(): Promise<void> => {
      const output = compactor.compact(await toQuads(documents[1][1]), NOTE);
      expect(output.published).toBe('2024-05-01T12:34:56Z');
      expect(output.attributedTo).toBe(ALICE);
      expect(output.inReplyTo).toBe(`${BOB}/statuses/1`);
      expect(output.to).toEqual(expect.arrayContaining([ PUBLIC, `${ALICE}/followers` ]));
      expect((output.to as string[]).length).toBe(2);
      expect(output.cc).toBe(BOB);
      const tags = output.tag as JsonObject[];
      expect(tags).toHaveLength(2);
      expect(tags).toEqual(expect.arrayContaining([
        { type: 'Mention', href: BOB, name: '@bob@remote.example' },
        { type: 'as:Hashtag', href: `${BASE}tags/fedpod`, name: '#fedpod' },
      ]));
      // Blank nodes are embedded without a label.
      for (const tag of tags) {
        expect(tag.id).toBeUndefined();
        expect(tag['@id']).toBeUndefined();
      }
    });

    it('puts language-tagged values in the language maps the context defines, as Mastodon writes them', async(): Promise<void> => {
      const output = compactor.compact(await toQuads(documents[3][1]), NOTE);
      expect(output.contentMap).toEqual({ fr: 'Bonjour' });
      expect(output.nameMap).toEqual({ en: 'Hello', ja: 'こんにちは', 'de-ch': 'Grüezi' });
      expect(output.content).toBeUndefined();
    });

    it('keeps plain content beside its language map, and two values of one language as a list', async(): Promise<void> => {
      const output = compactor.compact(await toQuads({ '@context': ACTIVITYSTREAMS_CONTEXT_URL, id: NOTE, type: 'Note',
        content: 'plain', contentMap: { de: [ 'eins', 'zwei' ], en: 'one' }}), NOTE);
      expect(output.content).toBe('plain');
      expect(output.contentMap).toEqual({ de: expect.arrayContaining([ 'eins', 'zwei' ]), en: 'one' });
    });

    it('keeps language tags in value objects for properties without a language map', async(): Promise<void> => {
      const output = compactor.compact(await toQuads({ '@context': ACTIVITYSTREAMS_CONTEXT_URL, id: NOTE, type: 'Note',
        mediaType: { '@value': 'text/plain', '@language': 'en' }}), NOTE);
      expect(output.mediaType).toEqual({ '@value': 'text/plain', '@language': 'en' });
    });

    it('uses prefixes for keys and types outside the ActivityStreams terms', async(): Promise<void> => {
      const output = compactor.compact(await toQuads(documents[7][1]), `${BASE}notes/`);
      expect(output.type).toEqual(expect.arrayContaining([ 'ldp:BasicContainer', 'ldp:Container' ]));
      expect(output['ldp:contains']).toEqual(expect.arrayContaining([{ id: `${BASE}notes/a` }, { id: `${BASE}notes/b` }]));
      expect(output['dc:modified']).toEqual({ '@value': '2024-05-01T12:00:00.000Z', '@type': 'xsd:dateTime' });
      expect(output.inbox).toBe(`${BASE}inbox/`);
    });

    it('compacts IRIs to terms, then prefixes, then leaves them whole', (): void => {
      expect(compactor.compactIri(`${AS}Note`)).toBe('Note');
      expect(compactor.compactIri(`${LDP}BasicContainer`)).toBe('ldp:BasicContainer');
      expect(compactor.compactIri('http://purl.org/dc/terms/modified')).toBe('dc:modified');
      expect(compactor.compactIri(`${SCHEMA}Person`)).toBe(`${SCHEMA}Person`);
      // A local part with a path or fragment would not read back as the same IRI.
      expect(compactor.compactIri(`${AS}a/b`)).toBe(`${AS}a/b`);
      expect(compactor.compactIri(AS)).toBe(AS);
    });
  });

  describe('unsupported shapes', (): void => {
    it('refuses RDF lists with UnsupportedShapeError, so the caller falls back to jsonld.js', async(): Promise<void> => {
      const input = await toQuads({
        '@context': ACTIVITYSTREAMS_CONTEXT_URL,
        id: `${BASE}collections/1`,
        type: 'OrderedCollection',
        orderedItems: [ `${BASE}a`, `${BASE}b` ],
      });
      expect(input.some((entry): boolean => entry.predicate.value === `${RDF}first`)).toBe(true);
      expect((): JsonObject => compactor.compact(input, `${BASE}collections/1`)).toThrow(UnsupportedShapeError);
    });

    it('refuses a blank node referenced twice', (): void => {
      const shared = blankNode('shared');
      const input = [
        quad(namedNode(NOTE), namedNode(`${AS}tag`), shared),
        quad(namedNode(NOTE), namedNode(`${AS}location`), shared),
        quad(shared, namedNode(`${AS}name`), literal('x')),
      ];
      expect((): JsonObject => compactor.compact(input, NOTE)).toThrow(UnsupportedShapeError);
    });

    it('refuses a blank node object that is never described, and blank node cycles', (): void => {
      expect((): JsonObject => compactor.compact([ quad(namedNode(NOTE), namedNode(`${AS}tag`), blankNode('empty')) ], NOTE))
        .toThrow(UnsupportedShapeError);
      const a = blankNode('a');
      const b = blankNode('b');
      expect((): JsonObject => compactor.compact([
        quad(namedNode(NOTE), namedNode(`${AS}tag`), a),
        quad(a, namedNode(`${AS}tag`), b),
        quad(b, namedNode(`${AS}tag`), a),
      ], NOTE)).toThrow(UnsupportedShapeError);
    });

    it('refuses subjects not reachable from the root', (): void => {
      const input = [
        quad(namedNode(NOTE), namedNode(`${AS}name`), literal('root')),
        quad(namedNode(`${BASE}other`), namedNode(`${AS}name`), literal('elsewhere')),
      ];
      expect((): JsonObject => compactor.compact(input, NOTE)).toThrow(UnsupportedShapeError);
    });

    it('refuses types that are not IRIs', (): void => {
      expect((): JsonObject => compactor.compact([ quad(namedNode(NOTE), namedNode(`${RDF}type`), blankNode('t')) ], NOTE))
        .toThrow(UnsupportedShapeError);
      expect((): JsonObject => compactor.compact([ quad(namedNode(NOTE), namedNode(`${RDF}type`), literal('Note')) ], NOTE))
        .toThrow(UnsupportedShapeError);
    });
  });
});
