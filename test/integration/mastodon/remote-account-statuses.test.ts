/**
 * Another server's account's statuses through the API, between two Fedpod instances (A and B, on
 * loopback with --allow-private-network): bob on B posts publicly, for his followers only, a reply to
 * carol and one to himself; alice on A follows nobody there, so none of it reached A. Her app (masto.js)
 * reads his statuses from the first page of his outbox on B: the public ones only, paged within it.
 * An anonymous reader's request fetches nothing.
 */
import { createRestAPIClient, type mastodon } from 'masto';
import { startAll, startFedpod, type FedpodServer } from '../../support/fedpod';
import { postToOutbox, signup, type Session } from '../../support/local-actors';
import { appToken } from '../../support/mastodon-oauth';

const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

describe('a remote account\'s statuses', () => {
  let a: FedpodServer;
  let b: FedpodServer;
  let bob: Session;
  let alice: mastodon.rest.Client;
  let aliceToken: string;
  const posts: Record<'hello' | 'quiet' | 'toCarol' | 'more', string> = {} as never;

  const contents = (statuses: mastodon.v1.Status[]): string[] => statuses.map((status) => status.content.replaceAll(/<[^>]*>/gu, ''));

  async function note(author: Session, content: string, extra: Record<string, unknown> = {}): Promise<string> {
    const posted = await postToOutbox(author, { type: 'Note', content, to: [ AS_PUBLIC ], cc: [ `${author.webId}/followers` ], ...extra });
    expect(posted.status).toBe(201);
    return (posted.body.object as { id: string }).id;
  }

  beforeAll(async() => {
    await startAll([ startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }) ], (servers) => {
      [ a, b ] = servers as FedpodServer[];
    });
    await signup(a.baseUrl, 'alice');
    aliceToken = await appToken(a.baseUrl, 'alice', 'correct horse', 'read write follow');
    alice = createRestAPIClient({ url: a.baseUrl.replace(/\/$/u, ''), accessToken: aliceToken });
    bob = await signup(b.baseUrl, 'bob');
    const carol = await signup(b.baseUrl, 'carol');
    const carolsPost = await note(carol, 'A post of carol');
    posts.hello = await note(bob, 'Hello from B');
    posts.quiet = await note(bob, 'Only for my followers', { to: [ `${bob.webId}/followers` ], cc: []});
    posts.toCarol = await note(bob, 'Nice one, carol', { inReplyTo: carolsPost, cc: [ carol.webId ]});
    posts.more = await note(bob, 'And one more thing', { inReplyTo: posts.hello });
  }, 240_000);

  afterAll(async() => {
    await a?.stop();
    await b?.stop();
  });

  it('fetches nothing for an anonymous reader, and the public posts from the outbox for a user', async() => {
    const account = await alice.v1.accounts.lookup({ acct: `bob@${new URL(b.baseUrl).host}` });
    expect(account.url).toBe(bob.webId);

    const anonymous = await fetch(`${a.baseUrl}api/v1/accounts/${account.id}/statuses`);
    expect([ anonymous.status, await anonymous.json() ]).toEqual([ 200, []]);
    // Nothing of bob's was fetched for it: A keeps none of his posts (a search that fetches nothing).
    const kept = await alice.v2.search.list({ q: posts.hello, type: 'statuses', resolve: false });
    expect(kept.statuses).toEqual([]);

    const statuses = await alice.v1.accounts.$select(account.id).statuses.list();
    expect(contents(statuses)).toEqual([ 'And one more thing', 'Nice one, carol', 'Hello from B' ]);
    expect(statuses.map((status) => status.uri)).toEqual([ posts.more, posts.toCarol, posts.hello ]);
    expect(statuses.every((status) => status.visibility === 'public' && status.account.id === account.id)).toBe(true);
    expect(statuses.map((status) => status.uri)).not.toContain(posts.quiet);
    // Kept on A now, as any status: readable by its id.
    expect((await alice.v1.statuses.$select(statuses[2].id).fetch()).uri).toBe(posts.hello);
  });

  it('pages within the posts read: limit, max_id, min_id, exclude_replies, only_media and pinned', async() => {
    const account = await alice.v1.accounts.lookup({ acct: `bob@${new URL(b.baseUrl).host}` });
    const statuses = alice.v1.accounts.$select(account.id).statuses;
    const [ more, toCarol, hello ] = await statuses.list();

    expect(contents(await statuses.list({ limit: 1 }))).toEqual([ 'And one more thing' ]);
    expect(contents(await statuses.list({ limit: 1, maxId: more.id }))).toEqual([ 'Nice one, carol' ]);
    expect(contents(await statuses.list({ maxId: toCarol.id }))).toEqual([ 'Hello from B' ]);
    expect(await statuses.list({ maxId: hello.id })).toEqual([]);
    expect(contents(await statuses.list({ minId: hello.id, limit: 1 }))).toEqual([ 'Nice one, carol' ]);
    expect(contents(await statuses.list({ sinceId: hello.id }))).toEqual([ 'And one more thing', 'Nice one, carol' ]);
    // An id not among them is placed by the time it carries (here: toCarol's own time, so older ones only).
    const hex = Date.parse(toCarol.createdAt).toString(16).padStart(12, '0');
    const atToCarol = `${hex.slice(0, 8)}-${hex.slice(8)}-7000-8000-000000000000`;
    expect(contents(await statuses.list({ maxId: atToCarol }))).toEqual([ 'Hello from B' ]);
    expect(contents(await statuses.list({ sinceId: atToCarol }))).toEqual([ 'And one more thing' ]);
    // A cursor that is none of this API's ids is ignored.
    expect(contents(await statuses.list({ maxId: 'not-an-id', limit: 1 }))).toEqual([ 'And one more thing' ]);
    // A reply to carol is left out, a reply to himself (a thread he continues) is not, as on Mastodon.
    expect(contents(await statuses.list({ excludeReplies: true }))).toEqual([ 'And one more thing', 'Hello from B' ]);
    expect(await statuses.list({ onlyMedia: true })).toEqual([]);
    expect(await statuses.list({ pinned: true })).toEqual([]);

    const page = await fetch(`${a.baseUrl}api/v1/accounts/${account.id}/statuses?limit=2`, { headers: { authorization: `Bearer ${aliceToken}` }});
    expect(page.headers.get('link')).toContain(`max_id=${toCarol.id}>; rel="next"`);
  });
});
