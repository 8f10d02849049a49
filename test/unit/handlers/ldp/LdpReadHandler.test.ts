import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DataFactory, Parser } from 'n3';
import { LdpReadHandler } from '../../../../src/handlers/ldp/LdpReadHandler';
import { AudienceRules } from '../../../../src/plugins/activitypub/AudienceRules';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { RdfSerializer } from '../../../../src/plugins/ldp/RdfSerializer';
import { fileMetadata, ResourceFiles } from '../../../../src/storage/ResourceFiles';
import { documentMetadata } from '../../../../src/storage/ResourceGraphs';
import { LDP_BASIC_CONTAINER, LDP_CONTAINER, LDP_RESOURCE, RDF_TYPE } from '../../../../src/storage/StoreVocabulary';
import { agentFromTestHeader, AS_USER } from '../activitypub/support';
import type { EmbeddedGraphs } from '../../support/embeddedGraphs';
import { startEmbeddedGraphs } from '../../support/embeddedGraphs';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';

const { namedNode, quad } = DataFactory;
const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams#';
const TITLE = 'http://purl.org/dc/terms/title';
const DOC = `${BASE}notes/doc`;

describe('LdpReadHandler (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let dataDir: string;
  let files: ResourceFiles;
  let server: HandlerServer;
  let audienceServer: HandlerServer;

  /** A file resource in a container, written as the write handlers do. */
  async function putFile(container: string, iri: string, body: string, contentType: string): Promise<void> {
    const now = new Date();
    await files.saveDescribed(Readable.from([ Buffer.from(body) ]), async(saved): Promise<void> =>
      graphs.resources.createInContainer(container, iri, [], [ ...documentMetadata(iri, now), ...fileMetadata(iri, saved, contentType) ], now));
  }

  /** A container whose metadata has the container types, as CSS writes them. */
  async function putContainer(iri: string, parent?: string): Promise<void> {
    await graphs.resources.write(iri, parent, [ ...documentMetadata(iri, new Date()),
      ...[ LDP_CONTAINER, LDP_BASIC_CONTAINER ].map((type) => quad(namedNode(iri), namedNode(RDF_TYPE), namedNode(type))) ]);
  }

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
    dataDir = mkdtempSync(path.join(tmpdir(), 'fedpod-ldp-read-'));
    files = new ResourceFiles(dataDir);
    await putContainer(`${BASE}notes/`);
    await graphs.put(DOC, [ [ TITLE, 'the doc', 'literal' ] ], `${BASE}notes/`);
    await graphs.put(`${BASE}notes/other`, [ [ TITLE, 'other', 'literal' ] ], `${BASE}notes/`);
    await putContainer(`${BASE}notes/sub/`, `${BASE}notes/`);
    await putFile(`${BASE}notes/`, `${BASE}notes/hello.txt`, 'hello bytes', 'text/plain; charset=utf-8');
    await putFile(`${BASE}notes/`, `${BASE}notes/page.html`,
      `<html><head><title>t</title></head><body about="${BASE}notes/page.html"><span property="${TITLE}">From RDFa</span></body></html>`,
      'text/html');
    // What the audience rules guard: one public object with a blind copy, one for Bob only.
    await putContainer(`${BASE}objects/`);
    await graphs.put(`${BASE}objects/public`, [ [ `${AS}to`, `${AS}Public`, 'iri' ], [ `${AS}bcc`, 'https://r.example/u/secret', 'iri' ] ],
      `${BASE}objects/`);
    await graphs.put(`${BASE}objects/direct`, [ [ `${AS}to`, `${BASE}actors/bob`, 'iri' ] ], `${BASE}objects/`);
    const serializer = new RdfSerializer(BASE, new DocumentLoader(BASE));
    server = await serveHandler(new LdpReadHandler({ baseUrl: BASE, store: graphs.resources, serializer, files, pageSize: 2 }));
    audienceServer = await serveHandler(new LdpReadHandler({ baseUrl: BASE, store: graphs.resources, serializer, files,
      audience: new AudienceRules(graphs.resources, graphs.collections, BASE) }), agentFromTestHeader);
  });

  afterAll(async(): Promise<void> => {
    await server.close();
    await audienceServer.close();
    await graphs.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function get(target: string, headers: Record<string, string> = {}, on = server, method = 'GET'):
  Promise<{ status: number; headers: Headers; text: string }> {
    const response = await fetch(`${on.base}${target}`, { method, headers });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  function triples(text: string, base = BASE): string[][] {
    return new Parser({ baseIRI: base }).parse(text).map((entry): string[] => [ entry.subject.value, entry.predicate.value, entry.object.value ]);
  }

  it('serves a document as Turtle by default, with its LDP headers, ETag and date', async(): Promise<void> => {
    const answer = await get('/notes/doc');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/turtle');
    expect(triples(answer.text)).toEqual([ [ DOC, TITLE, 'the doc' ] ]);
    expect(answer.headers.get('link')).toContain(`<${LDP_RESOURCE}>; rel="type"`);
    expect(answer.headers.get('etag')).toMatch(/^"\d+-text\/turtle"$/u);
    expect(answer.headers.get('last-modified')).not.toBeNull();
    expect(Number(answer.headers.get('content-length'))).toBe(Buffer.byteLength(answer.text));
  });

  it('serves JSON-LD when asked, and HEAD with the headers only', async(): Promise<void> => {
    const answer = await get('/notes/doc', { accept: 'application/ld+json' });
    // Exactly the media type, as CSS answers: JSON and JSON-LD define no charset parameter.
    expect(answer.headers.get('content-type')).toBe('application/ld+json');
    expect((await get('/notes/doc', { accept: 'application/json' })).headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(answer.text)).toMatchObject({ id: DOC });
    const head = await get('/notes/doc', {}, server, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
  });

  it('answers 304 to a matching If-None-Match or an If-Modified-Since not before the last change', async(): Promise<void> => {
    const first = await get('/notes/doc');
    const eTag = first.headers.get('etag')!;
    expect((await get('/notes/doc', { 'if-none-match': `"x", W/${eTag}` })).status).toBe(304);
    expect((await get('/notes/doc', { 'if-none-match': '*' })).status).toBe(304);
    expect((await get('/notes/doc', { 'if-modified-since': first.headers.get('last-modified')! })).status).toBe(304);
    expect((await get('/notes/doc', { 'if-modified-since': 'Thu, 01 Jan 2015 00:00:00 GMT' })).status).toBe(200);
    expect((await get('/notes/doc', { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('lists a container with its members\' own triples, paged with Link rel="next"', async(): Promise<void> => {
    const members: string[] = [];
    let target: string | undefined = '/notes/';
    let pages = 0;
    while (target) {
      const answer = await get(target);
      expect(answer.status).toBe(200);
      const listed = triples(answer.text);
      members.push(...listed.filter(([ , predicate ]): boolean => predicate === 'http://www.w3.org/ns/ldp#contains').map(([ , , member ]): string => member));
      if (listed.some(([ subject ]): boolean => subject === DOC)) {
        expect(listed).toContainEqual([ DOC, TITLE, 'the doc' ]);
      }
      const next = /<([^>]+)>; rel="next"/u.exec(answer.headers.get('link') ?? '')?.[1];
      target = next?.slice('https://pod.example'.length);
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(members.sort()).toEqual([ DOC, `${BASE}notes/hello.txt`, `${BASE}notes/other`, `${BASE}notes/page.html`, `${BASE}notes/sub/` ]);
  });

  it('answers a container named without its slash, and 404 when there is nothing', async(): Promise<void> => {
    const answer = await get('/notes', { accept: 'application/ld+json' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ id: `${BASE}notes/` });
    const missing = await get('/nothing');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toEqual({ error: 'not_found', message: `No resource at ${BASE}nothing` });
  });

  it('streams a file with its type and size, 304 when unchanged, and 406 when RDF is asked of plain text', async(): Promise<void> => {
    const answer = await get('/notes/hello.txt');
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('hello bytes');
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(answer.headers.get('accept-ranges')).toBe('bytes');
    expect(answer.headers.get('content-length')).toBe('11');
    expect((await get('/notes/hello.txt', { 'if-none-match': answer.headers.get('etag')! })).status).toBe(304);
    const rdf = await get('/notes/hello.txt', { accept: 'text/turtle' });
    expect(rdf.status).toBe(406);
    expect(JSON.parse(rdf.text)).toEqual({ error: 'not_acceptable', message: `${BASE}notes/hello.txt is a text/plain file.` });
  });

  it('answers an HTML page asked for as RDF with its RDFa', async(): Promise<void> => {
    const answer = await get('/notes/page.html', { accept: 'text/turtle' });
    expect(answer.status).toBe(200);
    expect(triples(answer.text)).toContainEqual([ `${BASE}notes/page.html`, TITLE, 'From RDFa' ]);
  });

  it('gives a browser\'s page of a container text/html, an ETag and a 304 when unchanged, as CSS', async(): Promise<void> => {
    const page = await get('/notes/', { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html');
    expect(page.text).toContain('Contents of notes');
    const eTag = page.headers.get('etag')!;
    expect(eTag).toMatch(/^"\d+-text\/html"$/u);
    expect(page.headers.get('last-modified')).not.toBeNull();
    expect(eTag).not.toBe((await get('/notes/')).headers.get('etag'));
    const again = await get('/notes/', { accept: 'text/html', 'if-none-match': eTag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(eTag);
  });

  it('leaves writes, ranges, preferences, preconditions, reserved paths, browsers and other types to CSS', async(): Promise<void> => {
    const refused = [
      await fetch(`${server.base}/notes/doc`, { method: 'DELETE' }),
      await fetch(`${server.base}/notes/doc`, { headers: { range: 'bytes=0-1' }}),
      await fetch(`${server.base}/notes/`, { headers: { prefer: 'return=representation; include="http://www.w3.org/ns/ldp#PreferMinimalContainer"' }}),
      await fetch(`${server.base}/notes/doc`, { headers: { 'if-match': '"x"' }}),
      await fetch(`${server.base}/notes/doc.acl`),
      await fetch(`${server.base}/notes/doc`, { headers: { accept: 'text/html,*/*;q=0.8' }}),
      await fetch(`${server.base}/notes/doc`, { headers: { accept: 'image/png' }}),
    ];
    expect(refused.map(declined)).toEqual(refused.map((): boolean => true));
  });

  describe('with audience rules', (): void => {
    it('never serves blind copies, and takes ranges and preconditions itself', async(): Promise<void> => {
      const answer = await get('/objects/public', { range: 'bytes=0-1', 'if-match': '"x"' }, audienceServer);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/ld+json');
      expect(answer.text).not.toContain('secret');
      // The rest of the addressing stays.
      expect(answer.text).toContain('Public');
    });

    it('lists only the members the reader may read', async(): Promise<void> => {
      const ids = async(user?: string): Promise<string[]> => {
        const listing = JSON.parse((await get('/objects/', user ? { [AS_USER]: user } : {}, audienceServer)).text) as
          { 'ldp:contains': { id: string }[] };
        return listing['ldp:contains'].map((member): string => member.id).sort();
      };
      expect(await ids()).toEqual([ `${BASE}objects/public` ]);
      expect(await ids('bob')).toEqual([ `${BASE}objects/direct`, `${BASE}objects/public` ]);
      expect((await get('/objects/', { [AS_USER]: 'bob' }, audienceServer)).text).not.toContain('secret');
    });
  });
});
