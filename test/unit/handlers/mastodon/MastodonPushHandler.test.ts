import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MastodonPushHandler, nestedForm } from '../../../../src/handlers/mastodon/MastodonPushHandler';
import { PushSubscriptions } from '../../../../src/plugins/mastodon/PushSubscriptions';
import { VapidKeys } from '../../../../src/plugins/mastodon/VapidKeys';
import type { HandlerServer } from '../support/handlerServer';
import { serveHandler } from '../support/handlerServer';
import { browserKeys } from '../../../support/push-service';

const ALICE = { username: 'alice', webId: 'https://pod.example/actors/alice' };

describe('MastodonPushHandler', (): void => {
  let dataDir: string;
  let server: HandlerServer;
  let vapid: VapidKeys;

  beforeAll(async(): Promise<void> => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-push-handler-'));
    vapid = new VapidKeys(dataDir);
    // Bearer app-* is an app's OAuth token of alice; bearer fedpod is her Fedpod token (no app).
    server = await serveHandler(new MastodonPushHandler(new PushSubscriptions(dataDir), vapid), (request, operation): void => {
      const token = /^Bearer (\S+)$/u.exec(request.headers.authorization ?? '')?.[1];
      if (token?.startsWith('app-')) {
        operation.authenticated({ ...ALICE, app: 'client', scopes: [ 'push' ]});
      } else if (token === 'fedpod') {
        operation.authenticated(ALICE);
      }
    });
  });

  afterAll(async(): Promise<void> => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = async(token: string, method: string, body?: string, type = 'application/json'): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await fetch(`${server.base}/api/v1/push/subscription`, { method,
      headers: { authorization: `Bearer ${token}`, ...body === undefined ? {} : { 'content-type': type }}, body });
    return { status: response.status, body: await response.json() as Record<string, unknown> };
  };

  it('subscribes from a form, one subscription per token, and shows, changes and ends it', async(): Promise<void> => {
    const given = browserKeys();
    const form = new URLSearchParams({ 'subscription[endpoint]': 'https://push.example/a', 'subscription[keys][p256dh]': given.p256dh,
      'subscription[keys][auth]': given.auth, 'data[alerts][mention]': 'true', 'data[alerts][admin.report]': '1', 'data[policy]': 'follower' });
    const created = await call('app-1', 'POST', form.toString(), 'application/x-www-form-urlencoded');
    expect(created).toEqual({ status: 200, body: { id: expect.any(String), endpoint: 'https://push.example/a', policy: 'follower',
      server_key: await vapid.publicKey(), alerts: expect.objectContaining({ mention: true, 'admin.report': true, follow: false }) }});
    expect(await call('app-1', 'GET')).toEqual(created);
    expect(await call('app-2', 'GET')).toEqual({ status: 404, body: { error: 'Record not found' }});
    const changed = await call('app-1', 'PUT', JSON.stringify({ data: { alerts: { follow: true }}}));
    expect(changed.body).toMatchObject({ id: created.body.id, policy: 'follower', alerts: { mention: false, follow: true }});
    expect(await call('app-2', 'DELETE')).toEqual({ status: 200, body: {}});
    expect((await call('app-1', 'GET')).status).toBe(200);
    expect(await call('app-1', 'DELETE')).toEqual({ status: 200, body: {}});
    expect((await call('app-1', 'GET')).status).toBe(404);
    expect((await call('app-1', 'PUT', '{}')).status).toBe(404);
  });

  it('refuses invalid subscriptions and tokens that are not an app\'s with 422', async(): Promise<void> => {
    const invalid = await call('app-3', 'POST', JSON.stringify({ subscription: { endpoint: 'ftp://push.example/', keys: browserKeys() }}));
    expect(invalid.status).toBe(422);
    expect(invalid.body.error).toMatch(/^Validation failed: subscription\[endpoint\]/u);
    const fedpod = await call('fedpod', 'POST', JSON.stringify({ subscription: { endpoint: 'https://push.example/b', keys: browserKeys() }}));
    expect(fedpod.status).toBe(422);
    // Such a token has no subscription: reading or ending one is 404, as for an app's token without one.
    expect(await call('fedpod', 'GET')).toMatchObject({ status: 404, body: { error: 'Record not found' }});
    expect((await call('fedpod', 'DELETE')).status).toBe(404);
    expect((await call('app-3', 'POST', '{"subscription":', 'application/json')).status).toBe(400);
  });

  it('reads bracketed form names as Rails does, never into a prototype', (): void => {
    expect(nestedForm(new URLSearchParams('a[b][c]=1&a[d]=2&e=3&a[b][f]=4&x]=5'))).toEqual({ a: { b: { c: '1', f: '4' }, d: '2' }, e: '3' });
    const polluted = nestedForm(new URLSearchParams('__proto__[polluted]=1&a[constructor][prototype][polluted]=1'));
    expect(polluted).toEqual({});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
