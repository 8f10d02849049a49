import { WebhookHandler } from '../../../../src/handlers/webhooks/WebhookHandler';
import { DEFAULT_WEBHOOK_CONTEXT } from '../../../../src/plugins/webhooks/WebhookVocabulary';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';
import type { WebhookWorld } from './support';
import { ALICE, BASE, BOB, startWebhookWorld } from './support';

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: () => Record<string, unknown>;
}

describe('WebhookHandler (on the embedded store)', (): void => {
  let world: WebhookWorld;
  let server: HandlerServer;
  let aliceToken: string;
  let bobToken: string;

  beforeAll(async(): Promise<void> => {
    world = await startWebhookWorld();
    // The pipeline's authentication, as far as these tests need it: a valid Fedpod token is its user.
    server = await serveHandler(new WebhookHandler(BASE, world.service, 1000), async(request, operation): Promise<void> => {
      const token = /^Bearer (\S+)$/u.exec(request.headers.authorization ?? '')?.[1];
      const claims = token === undefined ? undefined : await world.tokens.verify(token).catch((): undefined => undefined);
      if (claims) {
        operation.authenticated({ webId: claims.webId, username: claims.username });
      }
    });
    aliceToken = await world.tokens.issue({ webId: ALICE, username: 'alice' });
    bobToken = await world.tokens.issue({ webId: BOB, username: 'bob' });
  });

  afterAll(async(): Promise<void> => {
    await server.close();
    await world.stop();
  });

  async function send(method: string, path: string, options: { token?: string; authorization?: string; body?: string } = {}):
  Promise<Answer> {
    const authorization = options.authorization ?? (options.token === undefined ? undefined : `Bearer ${options.token}`);
    const response = await fetch(`${server.base}${path}`, { method, body: options.body,
      headers: { 'content-type': 'application/json', ...authorization === undefined ? {} : { authorization }}});
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: (): Record<string, unknown> => JSON.parse(text) as Record<string, unknown> };
  }

  /** A new webhook of `token`'s user: its URI's path. */
  async function generate(token: string): Promise<string> {
    const answer = await send('POST', '/webhooks/', { token, body: JSON.stringify({ action: 'store-in-container' }) });
    expect(answer.status).toBe(201);
    return new URL(answer.headers.get('location')!).pathname;
  }

  it('generates a webhook for the token\'s user: 201, Location the URI, JSON-LD describing it', async(): Promise<void> => {
    const answer = await send('POST', '/webhooks/', { token: aliceToken, body: JSON.stringify({ action: 'store-in-container' }) });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
    const location = answer.headers.get('location')!;
    expect(location).toMatch(/^https:\/\/pod\.example\/webhooks\/[A-Za-z0-9_-]{43}$/u);
    expect(answer.json()).toEqual({ '@context': DEFAULT_WEBHOOK_CONTEXT, id: location, user: ALICE, action: 'store-in-container',
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/u) });
    // The container without its slash is the container.
    expect((await send('POST', '/webhooks', { token: aliceToken, body: JSON.stringify({ action: 'store-in-container' }) })).status).toBe(201);
  });

  it('refuses an action that is not allowed with 400, listing the allowed ones', async(): Promise<void> => {
    for (const body of [ { action: 'post-to-outbox' }, {}, [ 'store-in-container' ] ]) {
      const answer = await send('POST', '/webhooks/', { token: aliceToken, body: JSON.stringify(body) });
      expect(answer.status).toBe(400);
      expect(answer.json()).toMatchObject({ error: 'unknown_action', allowedActions: [ 'store-in-container' ]});
    }
  });

  it('answers 400 invalid_json to an empty or broken body at the container', async(): Promise<void> => {
    const empty = await send('POST', '/webhooks/', { token: aliceToken, body: '' });
    expect(empty.json()).toEqual({ error: 'invalid_json', message: 'The body is empty: send JSON.' });
    const broken = await send('POST', '/webhooks/', { token: aliceToken, body: '{"action"' });
    expect(broken.status).toBe(400);
    expect(broken.json()).toEqual({ error: 'invalid_json', message: 'The body is not valid JSON.' });
  });

  it('answers 401 at the container to a request the pipeline did not authenticate as a local user', async(): Promise<void> => {
    const body = JSON.stringify({ action: 'store-in-container' });
    const none = await send('POST', '/webhooks/', { body });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(none.json().error).toBe('authorization_required');
    // (The pipeline refuses invalid credentials before the handler; here they leave the request anonymous.)
    expect((await send('POST', '/webhooks/', { body, token: 'not.a.token' })).status).toBe(401);
    expect((await send('GET', '/webhooks/')).status).toBe(401);
  });

  it('lists the caller\'s own webhooks by their record IRIs, never their URIs', async(): Promise<void> => {
    const uri = await generate(bobToken);
    const answer = await send('GET', '/webhooks/', { token: bobToken });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    const listing = answer.json();
    expect(listing).toMatchObject({ '@context': DEFAULT_WEBHOOK_CONTEXT, id: `${BASE}webhooks/` });
    const items = listing.items as Record<string, unknown>[];
    expect(items).toEqual([{ id: expect.stringMatching(/^https:\/\/pod\.example\/webhooks\/[A-Za-z0-9_-]{43}$/u), type: 'Webhook',
      user: BOB, action: 'store-in-container', created: expect.any(String) }]);
    expect(answer.text).not.toContain(uri);
    const head = await send('HEAD', '/webhooks/', { token: bobToken });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
    expect(head.text).toBe('');
  });

  it('answers 405 to other methods at the container', async(): Promise<void> => {
    const answer = await send('PUT', '/webhooks/', { token: aliceToken, body: '{}' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('accepts JSON of any shape at a webhook URI, without credentials: 202 once the job is queued', async(): Promise<void> => {
    const uri = await generate(aliceToken);
    for (const data of [ { hello: 'world' }, [ 1, 2 ], 'text', 42 ]) {
      const answer = await send('POST', uri, { body: JSON.stringify(data) });
      expect(answer.status).toBe(202);
      const { job } = answer.json() as { job: string };
      expect(answer.json()).toEqual({ status: 'accepted', job: expect.stringMatching(/^wh-/u) });
      expect(world.accepted.at(-1)).toMatchObject({ id: job, user: ALICE, username: 'alice', action: 'store-in-container', data });
    }
  });

  it('refuses at a webhook URI what is not JSON (400) or too large (413), queueing nothing', async(): Promise<void> => {
    const uri = await generate(aliceToken);
    const before = world.accepted.length;
    expect((await send('POST', uri, { body: '' })).json().error).toBe('invalid_json');
    expect((await send('POST', uri, { body: '{not json' })).json().error).toBe('invalid_json');
    const large = await send('POST', uri, { body: JSON.stringify({ text: 'x'.repeat(2000) }) });
    expect(large.status).toBe(413);
    expect(world.accepted).toHaveLength(before);
  });

  it('answers 404 unknown_webhook for a URI it never made or a malformed one, and 405 to reading one', async(): Promise<void> => {
    const unknown = await send('POST', `/webhooks/${'a'.repeat(43)}`, { body: '{}' });
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual({ error: 'unknown_webhook', message: 'No such webhook (unknown or revoked).' });
    const malformed = await send('POST', '/webhooks/short', { body: '{}' });
    expect(malformed.json()).toEqual({ error: 'unknown_webhook', message: 'No such webhook.' });
    const read = await send('GET', await generate(aliceToken));
    expect(read.status).toBe(405);
    expect(read.headers.get('allow')).toBe('POST, DELETE');
  });

  it('lets only the owner revoke a webhook: 401 without a token, 403 for another user, then 204 and 404', async(): Promise<void> => {
    const uri = await generate(aliceToken);
    expect((await send('DELETE', uri)).status).toBe(401);
    const other = await send('DELETE', uri, { token: bobToken });
    expect(other.status).toBe(403);
    expect(other.json().error).toBe('not_owner');
    const revoked = await send('DELETE', uri, { token: aliceToken });
    expect(revoked.status).toBe(204);
    expect((await send('POST', uri, { body: '{}' })).status).toBe(404);
    expect((await send('DELETE', uri, { token: aliceToken })).status).toBe(404);
  });

  it('owns every path under the container and no other (a path without a canonical form never reaches it)', async(): Promise<void> => {
    expect((await send('GET', `/%77ebhooks/${'A'.repeat(43)}`)).status).toBe(405);
    for (const path of [ '/webhooksx', '/actors/alice', '/' ]) {
      expect({ path, declined: declined(await fetch(`${server.base}${path}`)) }).toEqual({ path, declined: true });
    }
  });
});
