import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BasicAuthGuard } from '../../../../src/storage/embedded/BasicAuthGuard';
import { DatasetRegistry } from '../../../../src/storage/embedded/DatasetRegistry';
import { EmbeddedDatasetFactory } from '../../../../src/storage/embedded/EmbeddedDatasetFactory';
import { FusekiAdminHandler } from '../../../../src/storage/embedded/FusekiAdminHandler';
import { RequestBodyReader } from '../../../../src/storage/embedded/RequestBodyReader';
import { ResponseSender } from '../../../../src/storage/embedded/ResponseSender';
import { request } from './support/storeHttp';

describe('FusekiAdminHandler', (): void => {
  let dataDir: string;
  let registry: DatasetRegistry;
  let server: http.Server;
  let url: string;

  beforeAll(async(): Promise<void> => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-fuseki-admin-'));
    registry = new DatasetRegistry(dataDir, new EmbeddedDatasetFactory({ compactThresholdBytes: 1024 * 1024, warn: (): void => undefined }));
    await registry.open();
    // Anonymous requests may read, as with anonymousAccess 'read': the writes must still ask for credentials.
    const guard = new BasicAuthGuard('admin', 'admin', 'read');
    const sender = new ResponseSender('test', (): void => undefined);
    const handler = new FusekiAdminHandler(registry, guard, new RequestBodyReader(1024), sender);
    server = http.createServer((req, res): void => {
      const [ path, search = '' ] = (req.url ?? '/').split('?');
      handler.handle({ request: req, response: res, path, search, auth: guard.check(req.headers.authorization) })
        .catch((error: unknown): void => sender.error(res, error));
    });
    await new Promise<void>((resolve): void => {
      server.listen(0, '127.0.0.1', resolve);
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async(): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((resolve): void => {
      server.close((): void => resolve());
    });
    await registry.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const create = async(body: string, headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }):
  ReturnType<typeof request> => request(`${url}/$/datasets`, { method: 'POST', headers, body });

  it('creates datasets by form and describes them as Fuseki does', async(): Promise<void> => {
    expect((await create('dbName=alpha&dbType=tdb2')).status).toBe(200);
    expect((await create('dbName=%2Fbeta&dbType=mem')).status).toBe(200);
    const one = await request(`${url}/$/datasets/alpha`);
    expect(one.status).toBe(200);
    expect(JSON.parse(one.body)).toMatchObject({ 'ds.name': '/alpha', 'ds.state': true, 'ds.type': 'tdb2' });
    const all = JSON.parse((await request(`${url}/$/datasets`)).body) as { datasets: Record<string, unknown>[] };
    expect(all.datasets.map((dataset): unknown => dataset['ds.name'])).toEqual(expect.arrayContaining([ '/alpha', '/beta' ]));
    expect(registry.describe('beta')).toEqual({ name: 'beta', type: 'mem' });
    const serverInfo = JSON.parse((await request(`${url}/$/server`)).body) as { version: string };
    expect(serverInfo.version).toBe('fedpod-embedded-oxigraph');
  });

  it('takes the form in the query string, and every tdb flavour as durable', async(): Promise<void> => {
    // No body at all (an empty string body would come with a text/plain type).
    expect((await request(`${url}/$/datasets?dbName=gamma&dbType=TDB`, { method: 'POST' })).status).toBe(200);
    expect(registry.describe('gamma')).toEqual({ name: 'gamma', type: 'tdb2' });
    expect((await create('dbName=delta')).status).toBe(200);
    expect(registry.describe('delta')?.type).toBe('tdb2');
  });

  it.each([
    [ 'an assembler', 'x', { 'content-type': 'text/turtle' }, 400, 'Only the dbName/dbType form is supported' ],
    [ 'no name', 'dbType=mem', undefined, 400, 'Missing dbName' ],
    [ 'a bad name', 'dbName=a%20b', undefined, 400, 'Invalid dataset name "a b"' ],
    [ 'an unknown type', 'dbName=epsilon&dbType=rocks', undefined, 400, 'Unsupported dbType "rocks"' ],
  ])('refuses a creation with %s', async(what, body, headers, status, message): Promise<void> => {
    const answer = await create(body, headers);
    expect(answer.status).toBe(status);
    expect(answer.body).toContain(message);
  });

  it('answers 409 for a name taken, and 413 for a body over the limit', async(): Promise<void> => {
    await create('dbName=taken');
    const again = await create('dbName=taken');
    expect(again.status).toBe(409);
    expect(again.body).toContain('Dataset /taken already exists');
    expect((await create(`dbName=${'x'.repeat(2000)}`)).status).toBe(413);
  });

  it('deletes a dataset, then knows it no more', async(): Promise<void> => {
    await create('dbName=doomed');
    expect((await request(`${url}/$/datasets/doomed`, { method: 'DELETE' })).status).toBe(200);
    expect((await request(`${url}/$/datasets/doomed`)).status).toBe(404);
    const again = await request(`${url}/$/datasets/doomed`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.body).toContain('No such dataset: /doomed');
  });

  it('lets anonymous clients read but asks them for credentials to write', async(): Promise<void> => {
    expect((await request(`${url}/$/datasets`, { auth: null })).status).toBe(200);
    const refused = await request(`${url}/$/datasets`, { method: 'POST', auth: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'dbName=sneaky' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Basic realm="test"');
    expect(registry.describe('sneaky')).toBeUndefined();
    await create('dbName=kept');
    expect((await request(`${url}/$/datasets/kept`, { method: 'DELETE', auth: null })).status).toBe(401);
    expect((await request(`${url}/$/datasets/kept`, { method: 'DELETE', auth: 'Basic d3Jvbmc6d3Jvbmc=' })).status).toBe(401);
    expect(registry.describe('kept')).toBeDefined();
  });

  it('answers 405 with what is allowed, 404 elsewhere, 400 for a malformed name', async(): Promise<void> => {
    const collection = await request(`${url}/$/datasets`, { method: 'PUT' });
    expect(collection.status).toBe(405);
    expect(collection.headers.get('allow')).toBe('GET, HEAD, POST');
    const one = await request(`${url}/$/datasets/alpha`, { method: 'POST' });
    expect(one.status).toBe(405);
    expect(one.headers.get('allow')).toBe('GET, HEAD, DELETE');
    expect((await request(`${url}/$/stats`)).status).toBe(404);
    expect((await request(`${url}/$/datasets/%E0%A4%A`)).status).toBe(400);
  });
});
