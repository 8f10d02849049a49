import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EqualReadWriteLocker, MemoryResourceLocker, RdfToQuadConverter } from '@solid/community-server';
import { LdpCreateHandler } from '../../../../src/handlers/ldp/LdpCreateHandler';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../src/plugins/ldp/JsonLdParser';
import { RdfOrFileConverter } from '../../../../src/plugins/ldp/RdfOrFileConverter';
import { ResourceFiles } from '../../../../src/storage/ResourceFiles';
import { FEDPOD_FILE, LDP_RESOURCE, MA_FORMAT } from '../../../../src/storage/StoreVocabulary';
import type { EmbeddedGraphs } from '../../support/embeddedGraphs';
import { startEmbeddedGraphs } from '../../support/embeddedGraphs';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';

const BASE = 'https://pod.example/';
const NOTES = `${BASE}notes/`;
const TITLE = 'http://purl.org/dc/terms/title';

/** Every file under `dir`, by name. */
function filesUnder(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      found.set(entry.name, path.join(entry.parentPath, entry.name));
    }
  }
  return found;
}

describe('LdpCreateHandler (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let dataDir: string;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
    dataDir = mkdtempSync(path.join(tmpdir(), 'fedpod-ldp-create-'));
    await graphs.put(NOTES, []);
    await graphs.put(`${BASE}plain`, []);
    const converter = new RdfOrFileConverter(new RdfToQuadConverter(), new JsonLdParser(BASE, new DocumentLoader(BASE)));
    server = await serveHandler(new LdpCreateHandler({ baseUrl: BASE, store: graphs.resources, converter,
      locker: new EqualReadWriteLocker(new MemoryResourceLocker()), files: new ResourceFiles(dataDir), maxBodyBytes: 4096 }));
  });

  afterAll(async(): Promise<void> => {
    await server.close();
    await graphs.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function post(target: string, body: string, headers: Record<string, string>): Promise<Response> {
    return fetch(`${server.base}${target}`, { method: 'POST', body, redirect: 'manual', headers });
  }

  async function contains(container: string): Promise<string[]> {
    return graphs.resources.children(container);
  }

  it('stores Turtle as triples about the new resource, in the container: 201 with Location and its links', async(): Promise<void> => {
    const response = await post('/notes/', `<> <${TITLE}> "first" .`, { 'content-type': 'text/turtle' });
    expect(response.status).toBe(201);
    const location = response.headers.get('location')!;
    expect(location.startsWith(NOTES)).toBe(true);
    expect(response.headers.get('link')).toContain(`<${LDP_RESOURCE}>; rel="type"`);
    const data = await graphs.resources.readData(location);
    expect(data.map((entry): string[] => [ entry.subject.value, entry.predicate.value, entry.object.value ])).toEqual([ [ location, TITLE, 'first' ] ]);
    expect(await contains(NOTES)).toContain(location);
  });

  it('honours a Slug, and never overwrites what the slug names', async(): Promise<void> => {
    const first = await post('/notes/', `<> <${TITLE}> "a" .`, { 'content-type': 'text/turtle', slug: 'my-note' });
    expect(first.headers.get('location')).toBe(`${NOTES}my-note`);
    const second = await post('/notes/', `<> <${TITLE}> "b" .`, { 'content-type': 'text/turtle', slug: 'my-note' });
    const other = second.headers.get('location')!;
    expect(other).toMatch(/^https:\/\/pod\.example\/notes\/my-note-.+$/u);
    expect((await graphs.resources.readData(`${NOTES}my-note`))[0].object.value).toBe('a');
  });

  it('refuses with 403 a Slug naming an auxiliary resource, creating nothing (Solid Protocol, as CSS)', async(): Promise<void> => {
    const before = await contains(NOTES);
    for (const slug of [ 'doc.txt.meta', 'doc.acl', ' other.acr ' ]) {
      const response = await post('/notes/', '<a> <b> <c>.', { 'content-type': 'text/turtle', slug });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: 'auxiliary_slug' });
    }
    expect(await contains(NOTES)).toEqual(before);
    // Only the end of the name counts: a name that merely holds `.meta` is fine.
    expect((await post('/notes/', '<a> <b> <c>.', { 'content-type': 'text/turtle', slug: 'a.meta.ttl' })).headers.get('location'))
      .toBe(`${NOTES}a.meta.ttl`);
  });

  it('posts to a container named without its slash', async(): Promise<void> => {
    const response = await post('/notes', '{"@id":"","http://purl.org/dc/terms/title":"j"}', { 'content-type': 'application/ld+json' });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')!.startsWith(NOTES)).toBe(true);
  });

  it('stores anything else as a file, with its media type and charset', async(): Promise<void> => {
    const response = await post('/notes/', 'plain words', { 'content-type': 'text/plain; charset=UTF-8; x=y', slug: 'words.txt' });
    expect(response.status).toBe(201);
    const iri = response.headers.get('location')!;
    const metadata = await graphs.resources.readMetadata(iri);
    expect(metadata.find((entry): boolean => entry.predicate.value === MA_FORMAT)?.object.value).toBe('text/plain; charset=utf-8');
    const name = metadata.find((entry): boolean => entry.predicate.value === FEDPOD_FILE)!.object.value;
    expect(readFileSync(filesUnder(dataDir).get(name)!, 'utf8')).toBe('plain words');
    expect(await graphs.resources.readData(iri)).toEqual([]);
  });

  it('turns the container page\'s note form into a note, sending the browser back to the container', async(): Promise<void> => {
    const before = await contains(NOTES);
    const response = await post('/notes/', new URLSearchParams({ 'fedpod-form': 'note', name: ' Hello ', content: 'From a form' }).toString(),
      { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(NOTES);
    const added = (await contains(NOTES)).filter((iri): boolean => !before.includes(iri));
    expect(added).toHaveLength(1);
    const values = (await graphs.resources.readData(added[0])).map((entry): string => entry.object.value);
    expect(values).toEqual(expect.arrayContaining([ 'https://www.w3.org/ns/activitystreams#Note', 'Hello', 'From a form' ]));
    const empty = await post('/notes/', new URLSearchParams({ 'fedpod-form': 'note', content: '  ' }).toString(),
      { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' });
    expect(empty.status).toBe(400);
  });

  it('refuses a bad body with nothing written: broken RDF, too deep, too large', async(): Promise<void> => {
    const before = await contains(NOTES);
    expect((await post('/notes/', '<> <broken', { 'content-type': 'text/turtle' })).status).toBe(400);
    const deep = await post('/notes/', `<> <${TITLE}> ${'['.repeat(200)}${']'.repeat(200)} .`, { 'content-type': 'text/turtle' });
    expect(deep.status).toBe(400);
    expect(await deep.json()).toEqual({ error: 'too_deeply_nested', message: 'The body is nested more than 128 levels deep.' });
    expect((await post('/notes/', 'x'.repeat(5000), { 'content-type': 'text/plain' })).status).toBe(413);
    expect(await contains(NOTES)).toEqual(before);
  });

  it('evaluates preconditions against the container as CSS does: 412 with nothing written, on every body', async(): Promise<void> => {
    const before = await contains(NOTES);
    const files = filesUnder(dataDir).size;
    // CSS compares the date part of an ETag (its media type differs between representations).
    const eTag = `"${new Date((await graphs.resources.readModified(NOTES))!).getTime()}-application/ld+json"`;
    for (const [ type, body ] of [ [ 'text/turtle', `<> <${TITLE}> "t" .` ], [ 'text/plain', 'words' ] ]) {
      const refusing: Record<string, string>[] = [ { 'if-match': '"0-text/turtle"' }, { 'if-none-match': '*' }, { 'if-none-match': eTag },
        { 'if-unmodified-since': new Date(0).toUTCString() } ];
      for (const conditions of refusing) {
        const refused = await post('/notes/', body, { 'content-type': type, ...conditions });
        expect(refused.status).toBe(412);
        expect(await refused.json()).toEqual({ error: 'precondition_failed', message: expect.stringContaining(NOTES) });
      }
    }
    expect(await contains(NOTES)).toEqual(before);
    expect(filesUnder(dataDir).size).toBe(files);
    const accepted = await post('/notes/', 'words', { 'content-type': 'text/plain', 'if-match': eTag, slug: 'conditional' });
    expect(accepted.status).toBe(201);
    // The container changed: the same ETag no longer holds, and `*` does while the container exists.
    expect((await post('/notes/', 'words', { 'content-type': 'text/plain', 'if-match': eTag })).status).toBe(412);
    expect((await post('/notes/', 'words', { 'content-type': 'text/plain', 'if-match': '*' })).status).toBe(201);
    expect((await post('/missing/', 'x', { 'content-type': 'text/plain', 'if-none-match': '*' })).status).toBe(404);
  });

  it('answers 404 without a container and 405 for a POST to a resource that is not one', async(): Promise<void> => {
    expect((await post('/missing/', 'x', { 'content-type': 'text/plain' })).status).toBe(404);
    expect((await post('/missing', 'x', { 'content-type': 'text/plain' })).status).toBe(404);
    const plain = await post('/plain', 'x', { 'content-type': 'text/plain' });
    expect(plain.status).toBe(405);
    expect(plain.headers.get('allow')).toBe('OPTIONS, HEAD, GET, PATCH, PUT, DELETE');
  });

  it('leaves container creation, reserved paths and other methods to CSS', async(): Promise<void> => {
    const refused = [
      await post('/notes/', '', { link: '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"' }),
      await post('/notes/', '', { link: '<http://www.w3.org/ns/ldp#Container>; rel=type' }),
      await post('/notes/.acl', '', { 'content-type': 'text/turtle' }),
      await post('/.well-known/solid', '', {}),
      await fetch(`${server.base}/notes/`),
    ];
    expect(refused.map(declined)).toEqual([ true, true, true, true, true ]);
  });
});
