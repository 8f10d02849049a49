/**
 * Media across two Fedpod instances: alice posts a picture on one, bob follows her from the other;
 * the post arrives there with its attachment pointing at alice's server (no copy is made). How the
 * Mastodon API maps such a stored attachment is checked on real captured posts
 * (test/unit/plugins/mastodon/StatusEntity.test.ts).
 */
import { createRestAPIClient, type mastodon } from 'masto';
import sharp from 'sharp';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { eventually } from '../../support/eventually';
import { postToOutbox, signup, type Session } from '../../support/local-actors';

describe('media between two instances', () => {
  let first: FedpodServer;
  let second: FedpodServer;
  let alice: Session;
  let bob: Session;
  let aliceApi: mastodon.rest.Client;

  async function client(server: FedpodServer, username: string): Promise<mastodon.rest.Client> {
    const response = await fetch(`${server.baseUrl}auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'correct horse' }) });
    const { token } = await response.json() as { token: string };
    return createRestAPIClient({ url: server.baseUrl.replace(/\/$/u, ''), accessToken: token });
  }

  beforeAll(async() => {
    [ first, second ] = await Promise.all([
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
    ]);
    alice = await signup(first.baseUrl, 'alice');
    bob = await signup(second.baseUrl, 'bob');
    aliceApi = await client(first, 'alice');
    expect((await postToOutbox(bob, { type: 'Follow', object: alice.webId })).status).toBe(201);
    await eventually(async() => (await aliceApi.v1.accounts.verifyCredentials()).followersCount === 1, 60_000);
  });

  afterAll(async() => {
    await Promise.allSettled([ first?.stop(), second?.stop() ]);
  });

  it('delivers a post with a picture, shown on the other instance by reference to its origin', async() => {
    const picture = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const media = await aliceApi.v2.media.create({ file: new Blob([ new Uint8Array(picture) ], { type: 'image/png' }),
      description: 'a blue band', focus: '0.25,0.5' });
    const posted = await aliceApi.v1.statuses.create({ status: 'Look at this', mediaIds: [ media.id ], visibility: 'public' });

    // The Create reaches bob's inbox on the second instance with the Note and its attachment.
    const inboxPage = async(): Promise<Record<string, unknown>[]> => {
      const page = await (await fetch(`${bob.webId}/inbox?page=true`, { headers: { authorization: `Bearer ${bob.token}`,
        accept: 'application/activity+json' } })).json() as { orderedItems?: Record<string, unknown>[] };
      // Each item comes with its object embedded, and any node it names more than once as @included.
      return (page.orderedItems ?? []).flatMap((item) => [
        ...item.object && typeof item.object === 'object' ? [ item.object as Record<string, unknown> ] : [],
        ...(item['@included'] ?? []) as Record<string, unknown>[],
      ]);
    };
    const included = await eventually(async() => {
      const nodes = await inboxPage();
      return nodes.some((node) => node.id === posted.uri) ? nodes : undefined;
    }, 60_000);
    const note = included.find((node) => node.id === posted.uri)!;
    const attachmentId = [ note.attachment ].flat()[0] as string | Record<string, unknown>;
    const attachment = typeof attachmentId === 'string' ? included.find((node) => node.id === attachmentId)! : attachmentId;
    expect(attachment).toMatchObject({ type: 'Image', mediaType: 'image/png', url: media.url, name: 'a blue band',
      blurhash: media.blurhash });
    expect(attachment.focalPoint).toHaveLength(2);
    expect(media.url!.startsWith(first.baseUrl)).toBe(true);
    // Bob's apps show it in his home timeline on the second instance, the attachment by reference to its origin.
    const bobApi = await client(second, 'bob');
    const shown = await eventually(async() => (await bobApi.v1.timelines.home.list({ limit: 20 }))
      .find((status) => status.uri === posted.uri), 60_000);
    expect(shown.mediaAttachments).toHaveLength(1);
    expect(shown.mediaAttachments[0]).toMatchObject({ type: 'image', url: media.url, description: 'a blue band', blurhash: media.blurhash });
    // The other instance keeps a reference, no copy: the file is read from its origin, public as the post is.
    const file = await fetch(media.url!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).length).toBeGreaterThan(0);
  });
});
