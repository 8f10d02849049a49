import { OperatorWebhookHandler } from '../../../../src/handlers/webhooks/OperatorWebhookHandler';
import type { HandlerServer } from '../support/handlerServer';
import { serveHandler } from '../support/handlerServer';
import type { WebhookWorld } from './support';
import { ALICE, BASE, BOB, startWebhookWorld } from './support';

describe('OperatorWebhookHandler (on the embedded store)', (): void => {
  let world: WebhookWorld;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    world = await startWebhookWorld();
    server = await serveHandler(new OperatorWebhookHandler(world.service));
  });

  afterAll(async(): Promise<void> => {
    await server.close();
    await world.stop();
  });

  async function send(method: string, query = '', body?: unknown): Promise<{ status: number; headers: Headers; body: unknown }> {
    const response = await fetch(`${server.base}/.operator/webhooks${query}`, { method,
      ...body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' }}});
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  it('generates a webhook for a user named by username or WebID: 201 with its URI', async(): Promise<void> => {
    for (const user of [ 'alice', ALICE ]) {
      const answer = await send('POST', '', { user, action: 'store-in-container' });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({ id: expect.stringMatching(/^https:\/\/pod\.example\/webhooks\/[A-Za-z0-9_-]{43}$/u), user: ALICE,
        action: 'store-in-container', created: expect.any(String) });
    }
  });

  it('lists everyone\'s webhooks, or one user\'s, by record IRI', async(): Promise<void> => {
    const count = async(query = ''): Promise<number> => ((await send('GET', query)).body as unknown[]).length;
    const [ all, bobs ] = [ await count(), await count('?user=bob') ];
    await send('POST', '', { user: 'alice', action: 'store-in-container' });
    await send('POST', '', { user: 'bob', action: 'store-in-container' });
    const listing = await send('GET');
    expect(listing.status).toBe(200);
    expect(listing.body).toHaveLength(all + 2);
    const bobsNow = (await send('GET', '?user=bob')).body as { user: string }[];
    expect(bobsNow).toHaveLength(bobs + 1);
    expect(bobsNow[0]).toEqual({ iri: expect.stringMatching(/^https:\/\/pod\.example\/webhooks\/[A-Za-z0-9_-]{43}$/u), user: BOB,
      action: 'store-in-container', created: expect.any(String) });
    expect(bobsNow.every((record): boolean => record.user === BOB)).toBe(true);
    expect((await send('GET', `?user=${encodeURIComponent(BOB)}`)).body).toEqual(bobsNow);
  });

  it('revokes any user\'s webhook by its URI: 200 naming it, then 404', async(): Promise<void> => {
    const { id } = (await send('POST', '', { user: 'bob', action: 'store-in-container' })).body as { id: string };
    const revoked = await send('DELETE', '', { uri: id });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ iri: expect.stringMatching(/^https:\/\/pod\.example\/webhooks\//u), user: BOB, action: 'store-in-container' });
    const again = await send('DELETE', '', { uri: id });
    expect(again.status).toBe(404);
    expect((again.body as { error: string }).error).toBe('unknown_webhook');
  });

  it('answers 400 invalid_body naming the first field missing', async(): Promise<void> => {
    expect(await send('POST', '', { action: 'store-in-container' })).toMatchObject({ status: 400, body: { error: 'invalid_body',
      message: 'Send a JSON object with user and action as strings (user is missing).' }});
    expect((await send('POST', '', { user: 'alice', action: 7 })).body).toMatchObject({ message: expect.stringContaining('(action is missing)') });
    expect((await send('POST', '', [ 'alice' ])).body).toMatchObject({ error: 'invalid_body' });
    expect((await send('DELETE', '', { uri: '' })).body).toEqual({ error: 'invalid_body',
      message: 'Send a JSON object with uri as strings (uri is missing).' });
  });

  it('passes on the service\'s refusals: unknown user 404, action not allowed 400, broken JSON 400', async(): Promise<void> => {
    expect((await send('POST', '', { user: 'mallory', action: 'store-in-container' })).status).toBe(404);
    expect((await send('GET', '?user=mallory')).status).toBe(404);
    expect(await send('POST', '', { user: 'alice', action: 'post-to-outbox' })).toMatchObject({ status: 400,
      body: { error: 'unknown_action', allowedActions: [ 'store-in-container' ]}});
    expect(await send('POST', '', '{"user"')).toMatchObject({ status: 400, body: { error: 'invalid_json' }});
    expect((await send('DELETE', '', { uri: `${BASE}actors/alice` })).status).toBe(404);
  });

  it('refuses bodies over 16 KiB with 413 and other methods with 405', async(): Promise<void> => {
    expect((await send('POST', '', { user: 'alice', action: 'store-in-container', pad: 'x'.repeat(17 * 1024) })).status).toBe(413);
    const put = await send('PUT', '', {});
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
  });
});
