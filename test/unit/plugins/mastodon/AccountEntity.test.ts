import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Json } from '../../../../src/plugins/activitypub/ActivityJson';
import { toAccount } from '../../../../src/plugins/mastodon/AccountEntity';

const DEFAULTS = { localHost: 'pod.example', defaultAvatar: 'https://pod.example/a.png', defaultHeader: 'https://pod.example/h.png' };

describe('the Account entity', (): void => {
  it('maps a remote Mastodon actor: acct with its host, icon, profile URL', (): void => {
    const person = JSON.parse(readFileSync(path.join(__dirname, '../../../fixtures/fediverse/mastodon/objects/person.json'), 'utf8')) as Json;
    const account = toAccount(person, { ...DEFAULTS, id: 'r1' });
    expect(account).toMatchObject({
      id: 'r1',
      username: 'mastodon',
      acct: 'mastodon@masto.qa.urbanwildlife.biz',
      display_name: 'Mastodon',
      url: 'https://masto.qa.urbanwildlife.biz/@mastodon',
      uri: 'https://masto.qa.urbanwildlife.biz/users/mastodon',
      locked: false,
      bot: false,
      discoverable: false,
      created_at: '2022-10-03T00:00:00Z',
      header: DEFAULTS.defaultHeader,
      emojis: [],
      fields: [],
    });
    expect(account.avatar).toMatch(/^https:\/\/masto\.qa\.urbanwildlife\.biz\//u);
  });

  it('maps a local actor with its counts; default images when it has none', (): void => {
    const account = toAccount({ id: 'https://pod.example/actors/alice', type: 'Service', preferredUsername: 'alice',
      summary: '<p>hi</p>', manuallyApprovesFollowers: true,
      attachment: [{ type: 'PropertyValue', name: 'Site', value: '<a href="https://a.example">a</a>' }]},
    { ...DEFAULTS, id: 'alice', counts: { followers: 2, following: 3, statuses: 4 }});
    expect(account).toMatchObject({ id: 'alice', acct: 'alice', note: '<p>hi</p>', locked: true, bot: true,
      avatar: DEFAULTS.defaultAvatar, header: DEFAULTS.defaultHeader, followers_count: 2, following_count: 3, statuses_count: 4,
      fields: [{ name: 'Site', value: '<a href="https://a.example">a</a>', verified_at: null }]});
  });
});
