import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PushSubscriptions, pushSubscriptionEntity } from '../../../../src/plugins/mastodon/PushSubscriptions';
import { browserKeys } from '../../../support/push-service';

describe('PushSubscriptions', (): void => {
  let dataDir: string;
  let subscriptions: PushSubscriptions;
  const endpoint = 'https://push.example/send/abc';

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-push-'));
    subscriptions = new PushSubscriptions(dataDir);
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps one subscription per token, its alerts false unless given, the keys as base64url', async(): Promise<void> => {
    const keys = browserKeys();
    // As some apps send it: base64, padded.
    const base64 = { ...keys, p256dh: Buffer.from(keys.p256dh, 'base64url').toString('base64') };
    const first = await subscriptions.subscribe('alice', 'token-1', { subscription: { endpoint, keys: base64 },
      data: { alerts: { mention: 'true', follow: '0', admin: { sign_up: true }}}});
    expect(first.alerts).toEqual({ mention: true, status: false, reblog: false, follow: false, follow_request: false, favourite: false,
      poll: false, update: false, 'admin.sign_up': true, 'admin.report': false });
    expect(first.policy).toBe('all');
    expect(first.keys.p256dh).toBe(keys.p256dh);
    const second = await subscriptions.subscribe('alice', 'token-1', { subscription: { endpoint, keys: browserKeys() }, policy: 'followed' });
    expect(second.id).not.toBe(first.id);
    expect(await subscriptions.get('alice', 'token-1')).toEqual(second);
    expect(await subscriptions.ofUser('alice')).toEqual([ second ]);
    expect(pushSubscriptionEntity(second, 'KEY')).toEqual({ id: second.id, endpoint, alerts: second.alerts, policy: 'followed', server_key: 'KEY' });
  });

  it('keeps each user\'s apart: another user\'s token finds nothing', async(): Promise<void> => {
    await subscriptions.subscribe('alice', 'token-a', { subscription: { endpoint, keys: browserKeys() }});
    await subscriptions.subscribe('bob', 'token-b', { subscription: { endpoint, keys: browserKeys() }});
    expect(await subscriptions.get('carol', 'token-a')).toBeUndefined();
    expect((await subscriptions.ofUser('alice')).map((subscription) => subscription.token)).toEqual([ 'token-a' ]);
    expect(readdirSync(join(dataDir, 'mastodon', 'push'))).toHaveLength(2);
    expect(await subscriptions.delete('carol', 'token-a')).toBe(false);
    expect(await subscriptions.delete('alice', 'token-a')).toBe(true);
    expect(await subscriptions.ofUser('alice')).toEqual([]);
  });

  it('changes alerts and policy only when given, and only of an existing subscription', async(): Promise<void> => {
    expect(await subscriptions.update('alice', 'token-1', { data: { policy: 'none' }})).toBeUndefined();
    await subscriptions.subscribe('alice', 'token-1', { subscription: { endpoint, keys: browserKeys() }, data: { alerts: { mention: true }}});
    const policy = await subscriptions.update('alice', 'token-1', { data: { policy: 'follower' }});
    expect(policy).toMatchObject({ policy: 'follower', alerts: { mention: true }});
    const alerts = await subscriptions.update('alice', 'token-1', { data: { alerts: { favourite: true }}});
    expect(alerts).toMatchObject({ policy: 'follower', alerts: { mention: false, favourite: true }});
  });

  it('refuses invalid endpoints, keys and policies with 422, storing nothing', async(): Promise<void> => {
    const keys = browserKeys();
    for (const request of [
      { subscription: { keys }},
      { subscription: { endpoint: 'javascript:alert(1)', keys }},
      { subscription: { endpoint: 'not a url', keys }},
      { subscription: { endpoint: `https://push.example/${'a'.repeat(2100)}`, keys }},
      { subscription: { endpoint, keys: { ...keys, p256dh: 'AAAA' }}},
      { subscription: { endpoint, keys: { ...keys, p256dh: randomBytes(65).fill(2).toString('base64url') }}},
      { subscription: { endpoint, keys: { ...keys, auth: randomBytes(8).toString('base64url') }}},
      { subscription: { endpoint, keys: { ...keys, auth: '!!!!' }}},
      { subscription: { endpoint, keys }, data: { policy: 'friends' }},
    ]) {
      await expect(subscriptions.subscribe('alice', 'token-1', request)).rejects
        .toMatchObject({ statusCode: 422, message: expect.stringMatching(/^Validation failed: /u) });
    }
    expect(await subscriptions.ofUser('alice')).toEqual([]);
  });
});
