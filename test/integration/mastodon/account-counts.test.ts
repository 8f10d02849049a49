/**
 * An account's counts (statuses, followers, following) come from the totals the collections keep
 * in the store, moved by each add and remove: they must be what the collections hold after posts,
 * deletes, reactions undone, follows and unfollows, whichever of two nodes on one store (the run's
 * Virtuoso) and one Redis made the change and whichever answers.
 */
import type { FedpodServer } from '../../support/fedpod';
import { startNodePair, type NodeAnswer, type NodePair } from '../../support/node-pair';
import { sparqlSelect } from '../../support/sparql';
import { eventually as eventuallyWithin } from '../../support/eventually';

const ITEMS = 'https://www.w3.org/ns/activitystreams#items';
const TOTAL = 'https://fedpod.dev/ns#total';
/** More statuses than a collection needs to keep its total (CollectionStore). */
const POSTS = 70;

interface Session { token: string; webId: string }
interface Account { statuses_count: number; followers_count: number; following_count: number }
interface Status {
  id: string;
  reblog: Status | null;
  favourited: boolean;
  reblogged: boolean;
  bookmarked: boolean;
  pinned: boolean;
  replies_count: number;
  favourites_count: number;
  reblogs_count: number;
}

describe('account counts on two nodes', () => {
  let pair: NodePair | undefined;
  let nodes: FedpodServer[] = [];
  let endpoint: string;
  const run = Date.now().toString(36);

  /** A request straight to one node, with the public Host. */
  function call(node: FedpodServer, method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<NodeAnswer> {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    return pair!.call(node, method, path, { body, headers: { ...options.token ? { authorization: `Bearer ${options.token}` } : {},
      ...body === undefined ? {} : { 'content-type': 'application/json' } }});
  }

  async function ok<T>(answer: Promise<NodeAnswer>, status = 200): Promise<T> {
    const { status: got, body } = await answer;
    expect(`${got} ${got === status ? '' : body}`).toBe(`${status} `);
    return JSON.parse(body) as T;
  }

  async function account(node: FedpodServer, username: string): Promise<Account> {
    return ok<Account>(call(node, 'GET', `/api/v1/accounts/${username}`));
  }

  /** Users signed up, each on the next node. */
  async function signUp(...usernames: string[]): Promise<Session[]> {
    return Promise.all(usernames.map(async(username, index) => ok<Session>(call(nodes[index % nodes.length], 'POST', '/auth/signup',
      { body: { username, email: `${username}@example.com`, password: 'correct horse battery' }}), 201)));
  }

  /** The items the collection holds, counted in the store itself. */
  async function stored(collection: string): Promise<number> {
    const [ row ] = await sparqlSelect(endpoint, `SELECT (COUNT(DISTINCT ?i) AS ?n) WHERE { GRAPH <${collection}> { <${collection}> <${ITEMS}> ?i } }`);
    return Number(row.n.value);
  }

  /** Every node's counts of the account, once all of them are the expected ones. */
  async function countsEverywhere(username: string, expected: Partial<Account>): Promise<void> {
    await eventuallyWithin(async() => {
      const answers = await Promise.all(nodes.map(async(node) => account(node, username)));
      return answers.every((answer) => Object.entries(expected).every(([ key, value ]) => answer[key as keyof Account] === value)) ?
        true :
        undefined;
    }, 60_000, 250).catch(async(error: unknown) => {
      // Show what the nodes answered rather than a timeout alone.
      expect(await Promise.all(nodes.map(async(node) => account(node, username)))).toEqual(nodes.map(() => expect.objectContaining(expected)));
      throw error;
    });
  }

  beforeAll(async() => {
    const started = await startNodePair('activitypub', 'fedpod-counts', (startedPair) => {
      pair = startedPair;
    });
    ({ nodes, endpoint } = started);
  }, 300_000);

  afterAll(async() => {
    await pair?.stop();
  });

  it('counts posts, deletes, undone reactions, follows and unfollows made on either node', async() => {
    const [ alice, bob ] = await signUp(`alice${run}`, `bob${run}`);
    const aliceName = `alice${run}`;
    const outbox = `${alice.webId}/outbox`;

    // Posts through both nodes, ten at a time.
    const ids: string[] = [];
    for (let start = 0; start < POSTS; start += 10) {
      const posted = await Promise.all(Array.from({ length: 10 }, async(unused, offset) =>
        ok<{ id: string }>(call(nodes[(start + offset) % 2], 'POST', '/api/v1/statuses',
          { token: alice.token, body: { status: `post ${start + offset}`, visibility: 'public' }}))));
      ids.push(...posted.map((status) => status.id));
    }
    expect(await stored(outbox)).toBe(POSTS);
    await countsEverywhere(aliceName, { statuses_count: POSTS, followers_count: 0, following_count: 0 });
    // A total the outbox keeps (moved by each change from then on) is what it holds.
    const totals = await sparqlSelect(endpoint, `SELECT ?n WHERE { GRAPH <urn:fedpod:index:${outbox}> { <${outbox}> <${TOTAL}> ?n } }`);
    expect(totals.map((row) => Number(row.n.value)).filter((total) => total !== POSTS)).toEqual([]);

    // More posts on one node, read on the other.
    for (let index = 0; index < 3; index++) {
      await ok(call(nodes[1], 'POST', '/api/v1/statuses', { token: alice.token, body: { status: `more ${index}` }}));
    }
    await countsEverywhere(aliceName, { statuses_count: POSTS + 3 });

    // A favourite adds a Like to the outbox, undoing it takes the Like out; a delete adds its Delete.
    await ok(call(nodes[0], 'POST', `/api/v1/statuses/${ids[0]}/favourite`, { token: alice.token }));
    await ok(call(nodes[1], 'POST', `/api/v1/statuses/${ids[0]}/unfavourite`, { token: alice.token }));
    await ok(call(nodes[1], 'DELETE', `/api/v1/statuses/${ids[1]}`, { token: alice.token }));
    const afterChanges = await stored(outbox);
    expect(afterChanges).toBeGreaterThan(POSTS + 3);
    await countsEverywhere(aliceName, { statuses_count: afterChanges });

    // Follows and unfollows, each made on one node and read on both.
    await ok(call(nodes[1], 'POST', `/api/v1/accounts/${aliceName}/follow`, { token: bob.token }));
    await countsEverywhere(aliceName, { followers_count: 1 });
    await countsEverywhere(`bob${run}`, { following_count: 1 });
    await ok(call(nodes[0], 'POST', `/api/v1/accounts/${aliceName}/unfollow`, { token: bob.token }));
    await countsEverywhere(aliceName, { followers_count: 0 });
    await countsEverywhere(`bob${run}`, { following_count: 0 });
    expect(await stored(`${alice.webId}/followers`)).toBe(0);
    expect(await stored(`${bob.webId}/following`)).toBe(0);
  }, 600_000);

  it('shows each status of a home timeline as a GET of it does: counts and the reader\'s own marks, read for the page at once', async() => {
    const [ alice, bob ] = await signUp(`alice2${run}`, `bob2${run}`);
    await ok(call(nodes[0], 'POST', `/api/v1/accounts/alice2${run}/follow`, { token: bob.token }));
    await countsEverywhere(`bob2${run}`, { following_count: 1 });
    const post = async(session: Session, body: Record<string, unknown>): Promise<Status> =>
      ok<Status>(call(nodes[0], 'POST', '/api/v1/statuses', { token: session.token, body: { visibility: 'public', ...body }}));
    const [ first, second, third ] = [ await post(alice, { status: 'one' }), await post(alice, { status: 'two' }),
      await post(alice, { status: 'three' }) ];
    const own = await post(bob, { status: 'mine', in_reply_to_id: first.id });
    await ok(call(nodes[1], 'POST', `/api/v1/statuses/${first.id}/favourite`, { token: bob.token }));
    await ok(call(nodes[1], 'POST', `/api/v1/statuses/${second.id}/reblog`, { token: bob.token }));
    await ok(call(nodes[1], 'POST', `/api/v1/statuses/${third.id}/bookmark`, { token: bob.token }));
    await ok(call(nodes[0], 'POST', `/api/v1/statuses/${own.id}/pin`, { token: bob.token }));

    // Reactions reach a status's collections as their activities are delivered: wait for them before comparing.
    await eventuallyWithin(async() => {
      const [ liked, reblogged ] = await Promise.all([ first, second ].map(async(status) =>
        ok<Status>(call(nodes[0], 'GET', `/api/v1/statuses/${status.id}`, { token: bob.token }))));
      return liked.favourites_count === 1 && reblogged.reblogs_count === 1 ? true : undefined;
    }, 60_000, 250);
    const home = await eventuallyWithin(async() => {
      const page = await ok<Status[]>(call(nodes[1], 'GET', '/api/v1/timelines/home?limit=20', { token: bob.token }));
      return page.some((status) => status.id === third.id) ? page : undefined;
    }, 60_000, 250);
    const shown = (status: Status): Status => status.reblog ?? status;
    const facts = (status: Status): Partial<Status> => ({ id: status.id, favourited: status.favourited, reblogged: status.reblogged,
      bookmarked: status.bookmarked, pinned: status.pinned, replies_count: status.replies_count,
      favourites_count: status.favourites_count, reblogs_count: status.reblogs_count });
    const byId = new Map(home.map((status) => [ shown(status).id, facts(shown(status)) ]));
    expect(byId.get(first.id)).toMatchObject({ favourited: true, replies_count: 1, favourites_count: 1, reblogged: false });
    expect(byId.get(second.id)).toMatchObject({ reblogged: true, reblogs_count: 1, favourites_count: 0, favourited: false });
    expect(byId.get(third.id)).toMatchObject({ bookmarked: true, favourited: false, reblogged: false });
    expect(byId.get(own.id)).toMatchObject({ pinned: true });
    for (const status of home) {
      const single = await ok<Status>(call(nodes[0], 'GET', `/api/v1/statuses/${shown(status).id}`, { token: bob.token }));
      expect(facts(shown(status))).toEqual(facts(single));
    }
  }, 600_000);
});
