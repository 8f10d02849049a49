/**
 * A local account's statuses as apps' profile tabs ask for them (masto.js): alice posts a plain post,
 * a reply to bob, a reply to herself, a post with an image, and boosts bob's post; `exclude_replies`
 * leaves out only the reply to bob, `exclude_reblogs` the boost, `only_media` all but the image's
 * post. Carol, a stranger, never gets alice's followers-only post in any tab.
 */
import { createRestAPIClient, type mastodon } from 'masto';
import sharp from 'sharp';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { signup } from '../../support/local-actors';
import { appToken } from '../../support/mastodon-oauth';

describe('a local account\'s statuses, by tab', () => {
  let server: FedpodServer;
  const masto: Record<'alice' | 'bob' | 'carol', mastodon.rest.Client> = {} as never;
  let aliceId: string;

  const texts = (statuses: mastodon.v1.Status[]): string[] =>
    statuses.map((status) => (status.reblog ?? status).content.replaceAll(/<[^>]*>/gu, ''));

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
    const url = server.baseUrl.replace(/\/$/u, '');
    for (const name of [ 'alice', 'bob', 'carol' ] as const) {
      await signup(server.baseUrl, name);
      masto[name] = createRestAPIClient({ url, accessToken: await appToken(server.baseUrl, name, 'correct horse', 'read write follow') });
    }
    aliceId = (await masto.alice.v1.accounts.verifyCredentials()).id;
    const bobs = await masto.bob.v1.statuses.create({ status: 'bob speaks' });
    await masto.alice.v1.statuses.create({ status: 'plain post' });
    await masto.alice.v1.statuses.create({ status: '@bob a reply to bob', inReplyToId: bobs.id });
    const thread = await masto.alice.v1.statuses.create({ status: 'a thread begins' });
    await masto.alice.v1.statuses.create({ status: 'the thread goes on', inReplyToId: thread.id });
    const image = await sharp({ create: { width: 32, height: 16, channels: 3, background: { r: 10, g: 120, b: 10 } } }).png().toBuffer();
    const media = await masto.alice.v2.media.create({ file: new Blob([ new Uint8Array(image) ], { type: 'image/png' }), description: 'green' });
    await masto.alice.v1.statuses.create({ status: 'with a picture', mediaIds: [ media.id ] });
    await masto.alice.v1.statuses.create({ status: 'for followers only', visibility: 'private' });
    await masto.alice.v1.statuses.$select(bobs.id).reblog();
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('leaves out replies to others, boosts, or posts without media, as asked', async() => {
    const all = texts(await masto.alice.v1.accounts.$select(aliceId).statuses.list());
    expect(all).toEqual([ 'bob speaks', 'for followers only', 'with a picture', 'the thread goes on', 'a thread begins',
      '@bob a reply to bob', 'plain post' ]);
    expect(texts(await masto.alice.v1.accounts.$select(aliceId).statuses.list({ excludeReplies: true })))
      .toEqual([ 'bob speaks', 'for followers only', 'with a picture', 'the thread goes on', 'a thread begins', 'plain post' ]);
    expect(texts(await masto.alice.v1.accounts.$select(aliceId).statuses.list({ excludeReblogs: true })))
      .toEqual([ 'for followers only', 'with a picture', 'the thread goes on', 'a thread begins', '@bob a reply to bob', 'plain post' ]);
    expect(texts(await masto.alice.v1.accounts.$select(aliceId).statuses.list({ onlyMedia: true }))).toEqual([ 'with a picture' ]);
    // A small page still fills from further items when most are left out.
    expect(texts(await masto.alice.v1.accounts.$select(aliceId).statuses.list({ onlyMedia: true, limit: 1 }))).toEqual([ 'with a picture' ]);
  });

  it('never shows a stranger the followers-only post, in any tab', async() => {
    for (const params of [{}, { excludeReplies: true }, { excludeReblogs: true }, { onlyMedia: true }]) {
      const shown = texts(await masto.carol.v1.accounts.$select(aliceId).statuses.list(params));
      expect(shown).not.toContain('for followers only');
      expect(shown.length).toBeGreaterThan(0);
    }
  });
});
