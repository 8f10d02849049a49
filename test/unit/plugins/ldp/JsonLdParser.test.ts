import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../src/plugins/ldp/JsonLdParser';
import { FedpodHttpError } from '../../../../src/util/HttpErrors';

const { namedNode, blankNode, literal, quad } = DataFactory;

const BASE = 'http://localhost:3000/';
const RESOURCE = `${BASE}notes/n1`;
const AS = 'https://www.w3.org/ns/activitystreams#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** Runs `action` and returns what it threw (or fails the test when it did not throw). */
async function thrown(action: () => unknown): Promise<unknown> {
  try {
    await action();
  } catch (error: unknown) {
    return error;
  }
  throw new Error('Expected an error, but nothing was thrown.');
}

async function expectHttpError(action: () => unknown, status: number, code: string): Promise<FedpodHttpError> {
  const error = await thrown(action);
  expect(error).toBeInstanceOf(FedpodHttpError);
  expect(error).toMatchObject({ statusCode: status, errorCode: code });
  return error as FedpodHttpError;
}

function lines(quads: readonly Quad[]): string[] {
  return quads.map((entry): string => `${entry.subject.value} ${entry.predicate.value} ${entry.object.value}`).sort();
}

describe('JsonLdParser', (): void => {
  const parser = new JsonLdParser(BASE, new DocumentLoader(BASE));

  describe('parseJson', (): void => {
    it('parses JSON bodies, including UTF-8 text', (): void => {
      expect(parser.parseJson(Buffer.from('{"content":"héllo 😀","n":[1,true,null]}', 'utf8')))
        .toEqual({ content: 'héllo 😀', n: [ 1, true, null ] });
    });

    it.each([
      [ 'truncated JSON', '{"type":"Note"' ],
      [ 'an empty body', '' ],
      [ 'single quotes', '{\'type\':\'Note\'}' ],
      [ 'a trailing comma', '{"type":"Note",}' ],
      [ 'plain text', 'hello' ],
    ])('answers 400 invalid_json for %s', async(_name, body): Promise<void> => {
      const error = await expectHttpError((): unknown => parser.parseJson(Buffer.from(body)), 400, 'invalid_json');
      expect(error.message).toMatch(/JSON/u);
    });
  });

  describe('toQuads', (): void => {
    it('reads plain JSON without @context with Fedpod\'s context, about the resource IRI', async(): Promise<void> => {
      const quads = await parser.toQuads({ type: 'Note', content: 'hi', name: 'Title' }, RESOURCE);
      expect(lines(quads)).toEqual([
        `${RESOURCE} ${RDF_TYPE} ${AS}Note`,
        `${RESOURCE} ${AS}content hi`,
        `${RESOURCE} ${AS}name Title`,
      ].sort());
      for (const entry of quads) {
        expect(entry.graph.termType).toBe('DefaultGraph');
        expect(entry.subject.termType).toBe('NamedNode');
      }
    });

    it('reads Fedpod\'s prefixes and term coercions in plain JSON', async(): Promise<void> => {
      const quads = await parser.toQuads({
        type: 'Note',
        published: '2024-05-01T12:00:00Z',
        'dc:title': 'DC title',
        attributedTo: 'https://remote.example/users/bob',
        'ldp:inbox': { id: `${BASE}inbox/` },
      }, RESOURCE);
      const published = quads.find((entry): boolean => entry.predicate.value === `${AS}published`)!;
      expect(published.object).toMatchObject({ termType: 'Literal', value: '2024-05-01T12:00:00Z' });
      expect((published.object as ReturnType<typeof literal>).datatype.value).toBe(`${XSD}dateTime`);
      expect(quads.some((entry): boolean => entry.predicate.value === 'http://purl.org/dc/terms/title' &&
        entry.object.value === 'DC title')).toBe(true);
      expect(quads.some((entry): boolean => entry.predicate.value === `${AS}attributedTo` &&
        entry.object.termType === 'NamedNode' && entry.object.value === 'https://remote.example/users/bob')).toBe(true);
      expect(quads.some((entry): boolean => entry.predicate.value === 'http://www.w3.org/ns/ldp#inbox' &&
        entry.object.value === `${BASE}inbox/`)).toBe(true);
    });

    it('reads the same quads whether the ActivityStreams context is given or left out', async(): Promise<void> => {
      const body = { type: 'Note', content: 'same', to: [ `${AS}Public` ], tag: [{ type: 'Mention', href: 'https://x.example/u' }] };
      const plain = await parser.toQuads(body, RESOURCE);
      const withContext = await parser.toQuads({ '@context': 'https://www.w3.org/ns/activitystreams', ...body }, RESOURCE);
      const withFedpodContext = await parser.toQuads({ '@context': `${BASE}context.json`, ...body }, RESOURCE);
      expect(plain.length).toBe(6);
      expect(isomorphic(withContext, plain)).toBe(true);
      expect(isomorphic(withFedpodContext, plain)).toBe(true);
    });

    it('drops plain JSON keys that Fedpod\'s context does not define, without inventing predicates', async(): Promise<void> => {
      const quads = await parser.toQuads({ type: 'Note', content: 'kept', unknownKey: 'dropped', nested: { a: 1 } }, RESOURCE);
      expect(lines(quads)).toEqual([
        `${RESOURCE} ${RDF_TYPE} ${AS}Note`,
        `${RESOURCE} ${AS}content kept`,
      ].sort());
      for (const entry of quads) {
        expect(entry.predicate.value).toMatch(/^https?:\/\//u);
      }
    });

    it('keeps nested nodes as blank nodes linked from the resource', async(): Promise<void> => {
      const quads = await parser.toQuads({ type: 'Note', tag: [{ type: 'Mention', name: '@bob' }] }, RESOURCE);
      const link = quads.find((entry): boolean => entry.predicate.value === `${AS}tag`)!;
      expect(link.subject.value).toBe(RESOURCE);
      expect(link.object.termType).toBe('BlankNode');
      const expected = [
        quad(namedNode(RESOURCE), namedNode(RDF_TYPE), namedNode(`${AS}Note`)),
        quad(namedNode(RESOURCE), namedNode(`${AS}tag`), blankNode('t')),
        quad(blankNode('t'), namedNode(RDF_TYPE), namedNode(`${AS}Mention`)),
        quad(blankNode('t'), namedNode(`${AS}name`), literal('@bob')),
      ];
      expect(isomorphic(quads, expected)).toBe(true);
    });

    it('keeps the document\'s own id instead of the resource IRI', async(): Promise<void> => {
      const other = 'https://remote.example/notes/9';
      for (const body of [{ id: other, type: 'Note' }, { '@id': other, type: 'Note' }]) {
        const quads = await parser.toQuads(body, RESOURCE);
        expect(lines(quads)).toEqual([ `${other} ${RDF_TYPE} ${AS}Note` ]);
      }
    });

    // JsonLdParser.toQuads (src/plugins/ldp/JsonLdParser.ts:61) only looks for the literal keys `@id` and `id`.
    // A document whose own context aliases @id (here `identifier`) gets `@id: <resource>` added next to its
    // own id, and jsonld.js refuses it with "colliding keywords": a valid JSON-LD document answers 400.
    // Whether to support such aliases (e.g. by expanding first) is for the lead to decide.
    it.failing('keeps the document\'s own id when its context aliases @id', async(): Promise<void> => {
      const other = 'https://remote.example/notes/9';
      const quads = await parser.toQuads({
        '@context': [ 'https://www.w3.org/ns/activitystreams', { identifier: '@id' }],
        identifier: other,
        type: 'Note',
      }, RESOURCE);
      expect(lines(quads)).toEqual([ `${other} ${RDF_TYPE} ${AS}Note` ]);
    });

    it('resolves relative IRIs against the resource IRI', async(): Promise<void> => {
      const quads = await parser.toQuads({
        type: 'Note',
        inReplyTo: 'sibling',
        url: '/top-level',
        context: '#thread',
        attributedTo: '../users/alice',
        'ldp:inbox': { id: 'inbox/' },
      }, RESOURCE);
      const objectOf = (predicate: string): string =>
        quads.find((entry): boolean => entry.predicate.value === predicate)!.object.value;
      expect(objectOf(`${AS}inReplyTo`)).toBe(`${BASE}notes/sibling`);
      expect(objectOf(`${AS}url`)).toBe(`${BASE}top-level`);
      expect(objectOf(`${AS}context`)).toBe(`${RESOURCE}#thread`);
      expect(objectOf(`${AS}attributedTo`)).toBe(`${BASE}users/alice`);
      expect(objectOf('http://www.w3.org/ns/ldp#inbox')).toBe(`${BASE}notes/inbox/`);
    });

    it('resolves a relative id against the resource IRI', async(): Promise<void> => {
      const quads = await parser.toQuads({ id: '#me', type: 'Person' }, `${BASE}users/alice`);
      expect(lines(quads)).toEqual([ `${BASE}users/alice#me ${RDF_TYPE} ${AS}Person` ]);
    });

    it('does not change the document it is given', async(): Promise<void> => {
      const body = { type: 'Note', content: 'x' };
      await parser.toQuads(body, RESOURCE);
      expect(body).toEqual({ type: 'Note', content: 'x' });
    });

    it('answers 400 invalid_jsonld for a remote context it does not bundle, without fetching it', async(): Promise<void> => {
      const fetchSpy = jest.spyOn(globalThis, 'fetch');
      try {
        for (const contextUrl of [ 'https://schema.org/', 'http://169.254.169.254/latest/meta-data/', `${BASE}other-context.json` ]) {
          const error = await expectHttpError((): Promise<Quad[]> =>
            parser.toQuads({ '@context': contextUrl, type: 'Note' }, RESOURCE), 400, 'invalid_jsonld');
          expect(error.message).toContain('JSON-LD');
        }
        expect(fetchSpy).not.toHaveBeenCalled();
      } finally {
        fetchSpy.mockRestore();
      }
    });

    it('answers 400 invalid_jsonld for a remote context inside a context array', async(): Promise<void> => {
      await expectHttpError((): Promise<Quad[]> => parser.toQuads({
        '@context': [ 'https://www.w3.org/ns/activitystreams', 'https://unknown.example/ctx' ],
        type: 'Note',
      }, RESOURCE), 400, 'invalid_jsonld');
    });

    it.each([
      [ 'an empty array', [] ],
      [ 'an array of nodes', [{ type: 'Note', content: 'x' }] ],
      [ 'a string', 'Note' ],
      [ 'a number', 42 ],
      [ 'a boolean', true ],
      [ 'null', null ],
    ])('answers 400 for %s', async(_name, body): Promise<void> => {
      const error = await thrown((): Promise<Quad[]> => parser.toQuads(body, RESOURCE));
      expect(error).toBeInstanceOf(FedpodHttpError);
      expect((error as FedpodHttpError).statusCode).toBe(400);
    });

    it('answers 400 invalid_jsonld for JSON that is not valid JSON-LD', async(): Promise<void> => {
      await expectHttpError((): Promise<Quad[]> => parser.toQuads({ id: 5, type: 'Note' }, RESOURCE), 400, 'invalid_jsonld');
      await expectHttpError((): Promise<Quad[]> =>
        parser.toQuads({ '@context': { '@version': 2 }, type: 'Note' }, RESOURCE), 400, 'invalid_jsonld');
    });
  });

  describe('toQuads of fediverse documents', (): void => {
    const objects = (quads: Quad[], predicate: string): string[] =>
      quads.filter((entry): boolean => entry.predicate.value === predicate).map((entry): string => entry.object.value).sort();
    const note = {
      id: 'https://remote.example/notes/1',
      type: 'Note',
      content: 'look',
      sensitive: true,
      tag: [ { type: 'Hashtag', name: '#cats' }, { type: 'Emoji', name: ':blob:' } ],
    };

    it('gives terms the sender\'s context leaves out the meaning Mastodon gives them', async(): Promise<void> => {
      const quads = await parser.toQuads({ '@context': 'https://www.w3.org/ns/activitystreams', ...note }, note.id,
        { lenient: true, fediverse: true });
      expect(objects(quads, `${AS}sensitive`)).toEqual([ 'true' ]);
      expect(objects(quads, RDF_TYPE)).toEqual([ 'http://joinmastodon.org/ns#Emoji', `${AS}Hashtag`, `${AS}Note` ]);
    });

    it('loses them without (the ActivityStreams context maps unknown terms to blank identifiers)', async(): Promise<void> => {
      const quads = await parser.toQuads({ '@context': 'https://www.w3.org/ns/activitystreams', ...note }, note.id, { lenient: true });
      expect(objects(quads, `${AS}sensitive`)).toEqual([]);
      expect(objects(quads, RDF_TYPE)).not.toContain(`${AS}Hashtag`);
    });

    it('keeps the sender\'s own definition of a term', async(): Promise<void> => {
      const quads = await parser.toQuads({ '@context': [ 'https://www.w3.org/ns/activitystreams',
        { sensitive: 'https://vocab.example/sensitive' } ], ...note }, note.id, { lenient: true, fediverse: true });
      expect(objects(quads, 'https://vocab.example/sensitive')).toEqual([ 'true' ]);
      expect(objects(quads, `${AS}sensitive`)).toEqual([]);
    });

    it('reads Mastodon\'s namespace and a Pleroma server\'s litepub schema as those terms, fetching nothing', async(): Promise<void> => {
      for (const url of [ 'http://joinmastodon.org/ns', 'https://pleroma.example/schemas/litepub-0.1.jsonld' ]) {
        const quads = await parser.toQuads({ '@context': [ 'https://www.w3.org/ns/activitystreams', url ],
          id: note.id, type: 'EmojiReact', content: '🐱', featured: 'https://remote.example/featured' }, note.id, { lenient: true });
        expect(objects(quads, RDF_TYPE)).toEqual([ 'http://litepub.social/ns#EmojiReact' ]);
        expect(objects(quads, 'http://joinmastodon.org/ns#featured')).toEqual([ 'https://remote.example/featured' ]);
      }
    });

    it('keeps the bundled contexts across documents, never a vocabulary that clients\' documents may not use', async(): Promise<void> => {
      const loader = new DocumentLoader(BASE);
      const loaded: string[] = [];
      const counting = Object.assign(Object.create(loader) as DocumentLoader, {
        load: async(url: string): ReturnType<DocumentLoader['load']> => {
          loaded.push(url);
          return loader.load(url);
        },
      });
      const reader = new JsonLdParser(BASE, counting);
      const document = { '@context': 'https://www.w3.org/ns/activitystreams#', ...note };
      await reader.toQuads(document, note.id);
      await reader.toQuads({ ...document, id: `${note.id}-2` }, `${note.id}-2`);
      // jsonld.js kept it (tagged static), resolved and processed: not loaded for the second document.
      expect(loaded.filter((url): boolean => url === 'https://www.w3.org/ns/activitystreams#').length).toBeLessThanOrEqual(1);
      const litepub = 'https://pleroma.example/schemas/litepub-0.1.jsonld';
      await parser.toQuads({ '@context': [ 'https://www.w3.org/ns/activitystreams', litepub ], ...note }, note.id, { lenient: true });
      await expect(parser.toQuads({ '@context': [ 'https://www.w3.org/ns/activitystreams', litepub ], ...note }, note.id))
        .rejects.toMatchObject({ statusCode: 400, errorCode: 'invalid_jsonld' });
    });

    describe('with contexts of other servers', (): void => {
      const asked: string[] = [];
      // Stand-in for RemoteContextCache (tested on its own): two contexts, one of them unreadable.
      const remote = { contextDocument: async(url: string): Promise<Record<string, unknown> | undefined> => {
        asked.push(url);
        return {
          'https://ctx.example/mood': { '@context': { mood: 'https://vocab.example/mood' }},
          'https://ctx.example/broken': { '@context': { '@protected': true, content: { '@id': 'https://vocab.example/content' }}},
        }[url];
      } };
      const fetching = new JsonLdParser(BASE, new DocumentLoader(BASE, remote));

      beforeEach((): void => {
        asked.length = 0;
      });

      it('reads the terms a remote context defines, for other servers\' documents only', async(): Promise<void> => {
        const document = { '@context': [ 'https://www.w3.org/ns/activitystreams', 'https://ctx.example/mood' ], ...note, mood: 'happy' };
        const quads = await fetching.toQuads(document, note.id, { lenient: true, fediverse: true });
        expect(objects(quads, 'https://vocab.example/mood')).toEqual([ 'happy' ]);
        expect(asked).toEqual([ 'https://ctx.example/mood' ]);
        await expect(fetching.toQuads(document, note.id)).rejects.toMatchObject({ statusCode: 400, errorCode: 'invalid_jsonld' });
        expect(asked).toHaveLength(1);
      });

      it('reads a document as if a context that makes it unreadable could not be had', async(): Promise<void> => {
        const quads = await fetching.toQuads({ '@context': [ 'https://www.w3.org/ns/activitystreams', 'https://ctx.example/broken',
          { content: 'https://vocab.example/other' } ], ...note }, note.id, { lenient: true, fediverse: true });
        expect(objects(quads, 'https://vocab.example/other')).toEqual([ 'look' ]);
        expect(objects(quads, `${AS}sensitive`)).toEqual([ 'true' ]);
      });
    });

    it('leaves LDP documents alone: their own @vocab keeps terms Mastodon also uses', async(): Promise<void> => {
      const quads = await parser.toQuads({ '@context': { '@vocab': 'https://vocab.example/' }, value: 5 }, RESOURCE);
      expect(objects(quads, 'https://vocab.example/value')).toEqual([ '5' ]);
    });
  });
});
