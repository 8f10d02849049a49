import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HttpHandlerInput } from '@solid/community-server';
import { EqualReadWriteLocker, HttpHandler, MemoryResourceLocker, RdfToQuadConverter } from '@solid/community-server';
import { LdpFilePutHandler } from '../../../../src/handlers/ldp/LdpFilePutHandler';
import type { LdpWriteHandlerOptions } from '../../../../src/handlers/ldp/LdpWriteHandlerOptions';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../src/plugins/ldp/JsonLdParser';
import { RdfOrFileConverter } from '../../../../src/plugins/ldp/RdfOrFileConverter';
import { fileNameOf, ResourceFiles } from '../../../../src/storage/ResourceFiles';
import { MA_FORMAT } from '../../../../src/storage/StoreVocabulary';
import type { EmbeddedGraphs } from '../../support/embeddedGraphs';
import { startEmbeddedGraphs } from '../../support/embeddedGraphs';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';

const BASE = 'https://pod.example/';
const DOCS = `${BASE}docs/`;

/** In the place of CSS's LDP handler: answers 299 and counts what it was left. */
class CssStandIn extends HttpHandler {
  public readonly left: string[] = [];

  public async handle({ request, response }: HttpHandlerInput): Promise<void> {
    this.left.push(request.url!);
    request.resume();
    response.writeHead(299).end();
  }
}

function filesUnder(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  if (!existsSync(dir)) {
    return found;
  }
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      found.set(entry.name, path.join(entry.parentPath, entry.name));
    }
  }
  return found;
}

describe('LdpFilePutHandler (on the embedded store)', (): void => {
  const css = new CssStandIn();
  let graphs: EmbeddedGraphs;
  let dataDir: string;
  let options: LdpWriteHandlerOptions;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
    dataDir = mkdtempSync(path.join(tmpdir(), 'fedpod-ldp-put-'));
    await graphs.put(DOCS, []);
    await graphs.put(`${DOCS}sub/`, [], DOCS);
    options = { baseUrl: BASE, store: graphs.resources, files: new ResourceFiles(dataDir), fallback: css, maxBodyBytes: 1000,
      locker: new EqualReadWriteLocker(new MemoryResourceLocker()),
      converter: new RdfOrFileConverter(new RdfToQuadConverter(), new JsonLdParser(BASE, new DocumentLoader(BASE))) };
    server = await serveHandler(new LdpFilePutHandler(options));
  });

  afterAll(async(): Promise<void> => {
    await server.close();
    await graphs.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  beforeEach((): void => {
    css.left.length = 0;
  });

  async function put(target: string, body: string, headers: Record<string, string> = { 'content-type': 'text/plain' }): Promise<Response> {
    return fetch(`${server.base}${target}`, { method: 'PUT', body, headers });
  }

  async function storedFile(iri: string): Promise<{ name: string; text: string }> {
    const name = fileNameOf(await graphs.resources.readMetadata(iri))!;
    return { name, text: readFileSync(filesUnder(path.join(dataDir, 'files')).get(name)!, 'utf8') };
  }

  it('needs CSS\'s handler to fall back on', (): void => {
    expect((): unknown => new LdpFilePutHandler({ ...options, fallback: undefined })).toThrow('LdpFilePutHandler needs CSS\'s LDP handler as its fallback.');
  });

  it('creates a file in an existing container: 201 with Location, bytes on disk, described in the store', async(): Promise<void> => {
    const response = await put('/docs/a.txt', 'first version', { 'content-type': 'text/plain; charset=UTF-8' });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`${DOCS}a.txt`);
    expect((await storedFile(`${DOCS}a.txt`)).text).toBe('first version');
    const metadata = await graphs.resources.readMetadata(`${DOCS}a.txt`);
    expect(metadata.find((entry): boolean => entry.predicate.value === MA_FORMAT)?.object.value).toBe('text/plain; charset=utf-8');
    expect(await graphs.resources.children(DOCS)).toContain(`${DOCS}a.txt`);
  });

  it('replaces a file: 205, the new bytes, the old file removed', async(): Promise<void> => {
    await put('/docs/b.bin', 'old', { 'content-type': 'application/octet-stream' });
    const old = await storedFile(`${DOCS}b.bin`);
    const response = await put('/docs/b.bin', 'new', { 'content-type': 'application/octet-stream' });
    expect(response.status).toBe(205);
    const now = await storedFile(`${DOCS}b.bin`);
    expect(now.text).toBe('new');
    expect(now.name).not.toBe(old.name);
    expect(filesUnder(path.join(dataDir, 'files')).has(old.name)).toBe(false);
  });

  it('refuses a body over the limit with 413, writing nothing', async(): Promise<void> => {
    const response = await put('/docs/big.txt', 'x'.repeat(1001));
    expect(response.status).toBe(413);
    expect(await graphs.resources.exists(`${DOCS}big.txt`)).toBe(false);
  });

  it('leaves to CSS a PUT whose container is missing or whose name a container has', async(): Promise<void> => {
    expect((await put('/new/dir/c.txt', 'x')).status).toBe(299);
    expect((await put('/docs/sub', 'x')).status).toBe(299);
    expect(css.left).toEqual([ '/new/dir/c.txt', '/docs/sub' ]);
    expect(await graphs.resources.exists(`${BASE}new/dir/c.txt`)).toBe(false);
  });

  it('declines RDF and JSON bodies, preconditions, Link headers, containers, auxiliary and reserved paths, and other methods', async(): Promise<void> => {
    const refused = [
      await put('/docs/d.ttl', '<> <urn:p> "o" .', { 'content-type': 'text/turtle' }),
      await put('/docs/d.json', '{}', { 'content-type': 'application/json' }),
      await put('/docs/d.txt', 'x', { 'content-type': 'text/plain', 'if-none-match': '*' }),
      await put('/docs/d.txt', 'x', { 'content-type': 'text/plain', 'if-match': '"e"' }),
      await put('/docs/d.txt', 'x', { 'content-type': 'text/plain', link: '<http://www.w3.org/ns/ldp#Resource>; rel="type"' }),
      await put('/docs/e/', 'x'),
      await put('/docs/d.txt.acl', 'x'),
      await put('/docs/d.txt.meta', 'x'),
      await put('/.well-known/x', 'x'),
      await fetch(`${server.base}/docs/a.txt`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' }}),
    ];
    expect(refused.map(declined)).toEqual(refused.map((): boolean => true));
  });
});
