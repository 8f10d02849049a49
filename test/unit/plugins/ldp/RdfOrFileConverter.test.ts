import type { Quad } from '@rdfjs/types';
import type { Representation } from '@solid/community-server';
import { Readable } from 'node:stream';
import arrayifyStream from 'arrayify-stream';
import { BasicRepresentation, INTERNAL_QUADS, RdfToQuadConverter, readableToString } from '@solid/community-server';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../src/plugins/ldp/JsonLdParser';
import { isLinkedJson, RdfOrFileConverter } from '../../../../src/plugins/ldp/RdfOrFileConverter';

const BASE = 'http://localhost:3000/';
const DOC = `${BASE}notes/doc`;

describe('RdfOrFileConverter', () => {
  const converter = new RdfOrFileConverter(new RdfToQuadConverter(), new JsonLdParser(BASE, new DocumentLoader(BASE)));

  async function store(path: string, body: string, type: string): Promise<Representation> {
    return converter.handleSafe({ identifier: { path }, representation: new BasicRepresentation(body, type),
      preferences: { type: { [INTERNAL_QUADS]: 1 }}});
  }

  async function subjects(representation: Representation): Promise<string[]> {
    expect(representation.metadata.contentType).toBe(INTERNAL_QUADS);
    return [ ...new Set((await arrayifyStream<Quad>(representation.data)).map((entry): string => entry.subject.value)) ];
  }

  it('tells linked JSON from other JSON', () => {
    expect(isLinkedJson({ '@context': {}, a: 1 })).toBe(true);
    expect(isLinkedJson({ type: 'Note' })).toBe(true);
    expect(isLinkedJson([{ '@type': 'x' }, { type: 'y' }])).toBe(true);
    expect(isLinkedJson({ theme: 'dark' })).toBe(false);
    expect(isLinkedJson([{ type: 'y' }, 3 ])).toBe(false);
    expect(isLinkedJson([])).toBe(false);
    expect(isLinkedJson('type')).toBe(false);
  });

  it('reads Turtle as triples about the document it is stored at', async() => {
    expect(await subjects(await store(DOC, '<> <http://purl.org/dc/terms/title> "t" .', 'text/turtle'))).toEqual([ DOC ]);
  });

  it('reads JSON-LD, and linked JSON, as triples about the document (a node without @id is the document)', async() => {
    const jsonLd = JSON.stringify({ '@context': { t: 'http://purl.org/dc/terms/title' }, t: 'x' });
    expect(await subjects(await store(DOC, jsonLd, 'application/ld+json'))).toEqual([ DOC ]);
    expect(await subjects(await store(DOC, '{"type":"Note","content":"hi"}', 'application/json'))).toEqual([ DOC ]);
  });

  it('keeps any other body as it is: a file', async() => {
    for (const [ body, type ] of [ [ '{ "theme": "dark" }', 'application/json' ], [ '<p>rdfa-free page</p>', 'text/html' ],
      [ 'hello', 'text/plain' ], [ '[1, 2]', 'application/json' ] ]) {
      const kept = await store(DOC, body, type);
      expect(kept.metadata.contentType).toBe(type);
      expect(await readableToString(kept.data)).toBe(body);
    }
  });

  it('keeps a JSON file byte for byte when a character is split between chunks', async() => {
    const bytes = Buffer.from('{"name":"Zoë"}');
    const split = bytes.indexOf(0xC3) + 1;
    const kept = await converter.handleSafe({ identifier: { path: DOC }, preferences: { type: { [INTERNAL_QUADS]: 1 }},
      representation: new BasicRepresentation(Readable.from([ bytes.subarray(0, split), bytes.subarray(split) ]), 'application/json') });
    expect(Buffer.concat(await arrayifyStream<Buffer>(kept.data))).toEqual(bytes);
  });

  it('refuses a body that claims RDF but is not (400), and a non-RDF ACL or description (415)', async() => {
    // Turtle is parsed as it streams: its error comes with the data.
    await expect(store(DOC, '<> <x> .', 'text/turtle').then(async(kept): Promise<unknown> => arrayifyStream(kept.data)))
      .rejects.toMatchObject({ statusCode: 400 });
    await expect(store(DOC, '{"@context": {}, ', 'application/ld+json')).rejects.toMatchObject({ statusCode: 400 });
    await expect(store(DOC, 'not json at all', 'application/json')).rejects.toMatchObject({ statusCode: 400 });
    await expect(store(`${DOC}.acl`, 'hello', 'text/plain')).rejects.toMatchObject({ statusCode: 415 });
    await expect(store(`${DOC}.meta`, '{"a":1}', 'application/json')).rejects.toMatchObject({ statusCode: 415 });
  });

  it('reads RDF/XML, and refuses a cut-off RDF/XML document instead of keeping what was read of it', async() => {
    const open = '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/terms/">' +
      '<rdf:Description rdf:about=""><dc:title>t</dc:title>';
    expect(await subjects(await store(DOC, `${open}</rdf:Description></rdf:RDF>`, 'application/rdf+xml'))).toEqual([ DOC ]);
    await expect(store(DOC, open, 'application/rdf+xml')).rejects.toMatchObject({ statusCode: 400,
      message: expect.stringMatching(/^The body is not well-formed RDF\/XML: .*unclosed/u) });
    await expect(store(DOC, '<rdf:RDF', 'application/rdf+xml')).rejects.toMatchObject({ statusCode: 400 });
  });
});
