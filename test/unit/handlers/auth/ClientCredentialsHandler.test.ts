import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ClientCredentialsHandler } from '../../../../src/handlers/auth/ClientCredentialsHandler';
import { ClientCredentialsFileStore } from '../../../../src/plugins/accounts/ClientCredentialsFileStore';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';

const BASE = 'https://pod.example/';

interface Client {
  id: string;
  webId: string;
  created: string;
  secret?: string;
  issuer?: string;
}

describe('ClientCredentialsHandler', (): void => {
  let dataDir: string;
  let credentials: ClientCredentialsFileStore;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'fedpod-clients-'));
    credentials = new ClientCredentialsFileStore(dataDir);
    // The route's LocalUserAccess lets only local users through: the test names the user in a header.
    server = await serveHandler(new ClientCredentialsHandler(BASE, credentials), (request, operation): void => {
      const username = request.headers['x-test-user'] as string;
      operation.authenticated({ webId: `${BASE}actors/${username}`, username });
    });
  });

  afterAll(async(): Promise<void> => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function send(method: string, target: string, user: string, body?: string): Promise<Response> {
    return fetch(`${server.base}${target}`, { method, body, headers: { 'x-test-user': user, 'content-type': 'application/json' }});
  }

  it('makes a client named after the name given: 201, its secret shown once, never cached', async(): Promise<void> => {
    const response = await send('POST', '/auth/clients', 'alice', JSON.stringify({ name: 'My Bot!' }));
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const client = await response.json() as Client;
    expect(client).toEqual({ id: expect.stringMatching(/^my-bot_[0-9a-f]{24}$/u), webId: `${BASE}actors/alice`,
      created: expect.any(String), secret: expect.any(String), issuer: BASE });
    expect(response.headers.get('location')).toBe(`${BASE}auth/clients/${client.id}`);
    expect((await credentials.get(client.id))?.accountId).toBe('alice');
  });

  it('names a client "client" when the body is empty or names nothing', async(): Promise<void> => {
    for (const body of [ undefined, '  ', '{}' ]) {
      const client = await (await send('POST', '/auth/clients/', 'alice', body)).json() as Client;
      expect(client.id).toMatch(/^client_[0-9a-f]{24}$/u);
    }
  });

  it('refuses a name that is no string or too long with 400 invalid_name, and broken JSON with 400', async(): Promise<void> => {
    for (const name of [ 7, 'x'.repeat(101), [ 'bot' ] ]) {
      const response = await send('POST', '/auth/clients', 'alice', JSON.stringify({ name }));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalid_name', message: 'name must be a string of at most 100 characters.' });
    }
    expect((await (await send('POST', '/auth/clients', 'alice', '{"name"')).json() as { error: string }).error).toBe('invalid_json');
  });

  it('lists the user\'s own clients without their secrets', async(): Promise<void> => {
    const made = await (await send('POST', '/auth/clients', 'carol', JSON.stringify({ name: 'carols' }))).json() as Client;
    const response = await send('GET', '/auth/clients', 'carol');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual([{ id: made.id, webId: `${BASE}actors/carol`, created: made.created }]);
    expect(await (await send('GET', '/auth/clients', 'dave')).json()).toEqual([]);
  });

  it('revokes a user\'s own client (204) and answers 404 for anyone else\'s or an unknown one', async(): Promise<void> => {
    const made = await (await send('POST', '/auth/clients', 'alice', '{}')).json() as Client;
    const other = await send('DELETE', `/auth/clients/${made.id}`, 'bob');
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ error: 'not_found', message: 'You have no client with that id.' });
    expect(await credentials.get(made.id)).toBeDefined();
    expect((await send('DELETE', `/auth/clients/${made.id}`, 'alice')).status).toBe(204);
    expect(await credentials.get(made.id)).toBeUndefined();
    expect((await send('DELETE', `/auth/clients/${made.id}`, 'alice')).status).toBe(404);
  });

  it('answers 405 with the methods each path takes', async(): Promise<void> => {
    const onCollection = await send('DELETE', '/auth/clients', 'alice');
    expect(onCollection.status).toBe(405);
    expect(onCollection.headers.get('allow')).toBe('GET, HEAD, POST');
    const onClient = await send('GET', '/auth/clients/some-id', 'alice');
    expect(onClient.status).toBe(405);
    expect(onClient.headers.get('allow')).toBe('DELETE');
  });

  it('leaves other paths to other handlers', async(): Promise<void> => {
    for (const target of [ '/auth/client', '/auth/clients/a/b', '/auth/clientsx' ]) {
      expect({ target, declined: declined(await send('GET', target, 'alice')) }).toEqual({ target, declined: true });
    }
  });
});
