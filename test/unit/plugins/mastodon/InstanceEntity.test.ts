import { instanceV1, instanceV2 } from '../../../../src/plugins/mastodon/InstanceEntity';
import { MastodonRecords } from '../../../../src/plugins/mastodon/MastodonRecords';

const FACTS = { baseUrl: 'https://pod.example/', title: 'Pod', description: 'A pod', softwareVersion: '0.1.0', userCount: 3,
  statusCount: 0, maxCharacters: 5000, maxMediaAttachments: 4 };

describe('the Instance entities', (): void => {
  it('says Mastodon 4.2 compatible, with Fedpod\'s version, streaming URL and limits', (): void => {
    expect(instanceV1(FACTS)).toMatchObject({ uri: 'pod.example', title: 'Pod', version: '4.2.0 (compatible; Fedpod 0.1.0)',
      urls: { streaming_api: 'wss://pod.example' }, stats: { user_count: 3 },
      configuration: { statuses: { max_characters: 5000, max_media_attachments: 4 }}});
    expect(instanceV2({ ...FACTS, baseUrl: 'http://localhost:3000/' })).toMatchObject({ domain: 'localhost:3000',
      version: '4.2.0 (compatible; Fedpod 0.1.0)', configuration: { urls: { streaming: 'ws://localhost:3000' },
        statuses: { max_characters: 5000 }}, usage: { users: { active_month: 3 }}});
  });

  it('names the VAPID key in v2\'s configuration when the server sends Web Push, as Mastodon 4.3 does', (): void => {
    expect((instanceV2({ ...FACTS, vapidKey: 'BKEY' }).configuration as Record<string, unknown>).vapid).toEqual({ public_key: 'BKEY' });
    expect(instanceV2(FACTS).configuration).not.toHaveProperty('vapid');
  });
});

describe('Mastodon ids', (): void => {
  it('carry their time: a UUIDv7\'s first 48 bits', (): void => {
    expect(MastodonRecords.timeOf('01a22154-12ef-751e-8f17-84f7c73e4958')?.toISOString()).toBe('2026-11-28T08:44:47.727Z');
    expect(MastodonRecords.timeOf('alice')).toBeUndefined();
    expect(MastodonRecords.timeOf('01a22154-12ef-451e-8f17-84f7c73e4958')).toBeUndefined();
  });
});
