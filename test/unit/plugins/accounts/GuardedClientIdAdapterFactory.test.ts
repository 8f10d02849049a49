import type { AdapterFactory } from '@solid/community-server';
import { RdfToQuadConverter } from '@solid/community-server';
import type { Adapter } from '@solid/community-server/templates/types/oidc-provider';
import { GuardedClientIdAdapterFactory } from '../../../../src/plugins/accounts/GuardedClientIdAdapterFactory';
import { OutboundGuard } from '../../../../src/plugins/outbound/OutboundGuard';
import { startCanary, type Canary } from '../../../support/canary';

const OIDC_CONTEXT = 'https://www.w3.org/ns/solid/oidc-context.jsonld';

describe('GuardedClientIdAdapterFactory', () => {
  let app: Canary;
  const stored = new Map<string, Record<string, unknown>>();
  const source = {
    createStorageAdapter: (): Adapter => ({ find: async (id: string) => stored.get(id) } as unknown as Adapter),
  } as AdapterFactory;

  beforeAll(async () => {
    app = await startCanary();
    app.routes.set('/app.jsonld', (request, response) => {
      response.writeHead(200, { 'content-type': 'application/ld+json' });
      response.end(JSON.stringify({ '@context': [ OIDC_CONTEXT ], client_id: `${app.origin}/app.jsonld`, redirect_uris: [ 'https://app.example/cb' ] }));
    });
    app.routes.set('/other.jsonld', (request, response) => {
      response.writeHead(200, { 'content-type': 'application/ld+json' });
      response.end(JSON.stringify({ '@context': [ OIDC_CONTEXT ], client_id: 'https://elsewhere.example/id', redirect_uris: [] }));
    });
    app.routes.set('/app.ttl', (request, response) => {
      response.writeHead(200, { 'content-type': 'text/turtle' });
      response.end('<> <http://www.w3.org/ns/solid/oidc#redirect_uris> <https://app.example/turtle-cb> .');
    });
    app.routes.set('/gone', (request, response) => {
      response.writeHead(404).end();
    });
  });

  afterAll(async () => {
    await app.close();
  });

  const adapter = (allowPrivateNetwork: boolean, name = 'Client'): Adapter =>
    new GuardedClientIdAdapterFactory(source, new RdfToQuadConverter(), new OutboundGuard('http://localhost:1/', allowPrivateNetwork))
      .createStorageAdapter(name);

  it('reads a client ID document in JSON-LD, and one in Turtle', async () => {
    await expect(adapter(true).find(`${app.origin}/app.jsonld`)).resolves.toMatchObject({
      client_id: `${app.origin}/app.jsonld`, redirect_uris: [ 'https://app.example/cb' ], token_endpoint_auth_method: 'none' });
    await expect(adapter(true).find(`${app.origin}/app.ttl`)).resolves.toEqual({
      client_id: `${app.origin}/app.ttl`, redirect_uris: [ 'https://app.example/turtle-cb' ], token_endpoint_auth_method: 'none' });
  });

  it('knows no client whose document names another client_id, is missing, or is not http(s) on localhost', async () => {
    await expect(adapter(true).find(`${app.origin}/other.jsonld`)).resolves.toBeUndefined();
    await expect(adapter(true).find(`${app.origin}/gone`)).resolves.toBeUndefined();
    const before = app.hits.length;
    await expect(adapter(true).find(`http://127.0.0.1:${app.port}/app.jsonld`)).resolves.toBeUndefined();
    expect(app.since(before)).toEqual([]);
  });

  it('fetches nothing on loopback without --allow-private-network: the client is unknown', async () => {
    const before = app.hits.length;
    await expect(adapter(false).find(`${app.origin}/app.jsonld`)).resolves.toBeUndefined();
    await expect(adapter(false).find(`https://127.0.0.1:${app.port}/app.jsonld`)).resolves.toBeUndefined();
    expect(app.since(before)).toEqual([]);
  });

  it('prefers what the provider stores, and reads documents for clients only', async () => {
    stored.set(`${app.origin}/stored`, { client_id: 'kept' });
    await expect(adapter(true).find(`${app.origin}/stored`)).resolves.toEqual({ client_id: 'kept' });
    const before = app.hits.length;
    await expect(adapter(true, 'Session').find(`${app.origin}/app.jsonld`)).resolves.toBeUndefined();
    expect(app.since(before)).toEqual([]);
  });
});
