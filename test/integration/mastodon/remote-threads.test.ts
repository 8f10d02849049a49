/**
 * A thread's parts on another server, fetched when a user reads a status's context: two real
 * servers, this one (localhost) with alice, dave and erin, the other (reached as 127.0.0.1, another
 * domain) with bob, carol and frank. bob follows alice, so his replies to her reach this server;
 * carol's and frank's replies to bob never do. dave follows alice and nobody there.
 */
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { pageItemIds, postToOutbox, readJson, signup, type Session } from '../../support/local-actors';
import { freePort } from '../../support/ports';

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

interface Status { id: string; uri: string; content: string }
interface Context { ancestors: Status[]; descendants: Status[] }

describe('remote threads fetched on demand', () => {
  let here: FedpodServer;
  let there: FedpodServer;
  const users: Record<string, Session> = {};

  async function api(path: string, session: Session, method = 'GET', body?: unknown): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${here.baseUrl}api/${path}`, { method, headers: { authorization: `Bearer ${session.token}`,
      ...body === undefined ? {} : { 'content-type': 'application/json' } }, ...body === undefined ? {} : { body: JSON.stringify(body) } });
    return { status: response.status, body: await response.json() };
  }

  async function context(id: string, reader: Session): Promise<{ ancestors: string[]; descendants: string[] }> {
    const { status, body } = await api(`v1/statuses/${id}/context`, reader);
    expect(status).toBe(200);
    const uris = (statuses: Status[]): string[] => statuses.map((entry): string => entry.uri);
    return { ancestors: uris((body as Context).ancestors), descendants: uris((body as Context).descendants) };
  }

  /** The status this server keeps for `uri` (a search that fetches nothing), if any. */
  async function stored(uri: string, reader: Session): Promise<Status | undefined> {
    const { body } = await api(`v2/search?type=statuses&resolve=false&q=${encodeURIComponent(uri)}`, reader);
    return (body as { statuses: Status[] }).statuses[0];
  }

  async function note(author: Session, content: string, extra: Record<string, unknown>): Promise<string> {
    const posted = await postToOutbox(author, { type: 'Note', content, ...extra });
    expect(posted.status).toBe(201);
    return (posted.body.object as { id: string }).id;
  }

  async function alicePosts(text: string): Promise<Status> {
    const { status, body } = await api('v1/statuses', users.alice, 'POST', { status: text, visibility: 'public' });
    expect(status).toBe(200);
    const post = body as Status;
    // bob's server has it (he follows alice), so his reply is addressed to her and delivered here.
    await eventually(async() => (await readJson(`${there.baseUrl}remote?id=${encodeURIComponent(post.uri)}`, users.bob)).status === 200, 60_000);
    return post;
  }

  beforeAll(async() => {
    const port = await freePort();
    [ here, there ] = await Promise.all([
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true, port, baseUrl: `http://127.0.0.1:${port}/` }),
    ]);
    for (const name of [ 'alice', 'dave', 'erin' ]) {
      users[name] = await signup(here.baseUrl, name);
    }
    for (const name of [ 'bob', 'carol', 'frank' ]) {
      users[name] = await signup(there.baseUrl, name);
    }
    for (const [ follower, followed ] of [ [ 'bob', 'alice' ], [ 'dave', 'alice' ] ]) {
      expect((await postToOutbox(users[follower], { type: 'Follow', object: users[followed].webId })).status).toBe(201);
      await eventually(async() => (await pageItemIds(`${users[follower].webId}/following`)).includes(users[followed].webId), 60_000);
    }
  }, 240_000);

  afterAll(async() => {
    await Promise.all([ here?.stop(), there?.stop() ]);
  });

  it('shows the public replies on the other server, never delivered here, and not a followers-only one', async() => {
    const post = await alicePosts('What do you think?');
    const reply = await note(users.bob, 'I agree', { inReplyTo: post.uri, to: [ PUBLIC ]});
    const answer = await note(users.carol, 'So do I', { inReplyTo: reply, to: [ PUBLIC ]});
    const quiet = await note(users.frank, 'for my followers', { inReplyTo: reply, to: [ `${users.frank.webId}/followers` ]});
    await eventually(async() => stored(reply, users.dave), 60_000);
    expect(await stored(answer, users.dave)).toBeUndefined();

    // A read waits a few seconds at most for the other server; what comes later is there for the next read.
    const thread = await eventually(async() => {
      const read = await context(post.id, users.dave);
      return read.descendants.includes(answer) ? read : undefined;
    }, 60_000);
    expect(thread).toEqual({ ancestors: [], descendants: [ reply, answer ]});
    expect(await stored(answer, users.dave)).toMatchObject({ uri: answer, content: expect.stringContaining('So do I') });
    expect(await stored(quiet, users.dave)).toBeUndefined();
    expect((await context(post.id, users.erin)).descendants).not.toContain(quiet);
  });

  it('fetches the ancestors of a remote reply that arrived alone', async() => {
    const root = await note(users.bob, 'A question for the room', { to: [ PUBLIC ]});
    const middle = await note(users.carol, 'An answer', { inReplyTo: root, to: [ PUBLIC ]});
    const last = await note(users.bob, 'What does dave say?', { inReplyTo: middle, to: [ PUBLIC, users.dave.webId ]});
    const arrived = await eventually(async() => stored(last, users.dave), 60_000);
    expect(await stored(root, users.dave)).toBeUndefined();

    const thread = await eventually(async() => {
      const read = await context(arrived.id, users.dave);
      return read.ancestors.length === 2 ? read : undefined;
    }, 60_000);
    expect(thread).toEqual({ ancestors: [ root, middle ], descendants: []});
  });

  it('fetches nothing from a domain the reader blocked, and fetches it for the next reader', async() => {
    expect((await api('v1/domain_blocks', users.erin, 'POST', { domain: '127.0.0.1' })).status).toBe(200);
    const post = await alicePosts('Anyone there?');
    const reply = await note(users.bob, 'Here', { inReplyTo: post.uri, to: [ PUBLIC ]});
    const answer = await note(users.carol, 'Here too', { inReplyTo: reply, to: [ PUBLIC ]});
    await eventually(async() => stored(reply, users.dave), 60_000);

    // erin sees nothing of the domain she blocked, and her read fetched nothing from it.
    expect(await context(post.id, users.erin)).toEqual({ ancestors: [], descendants: []});
    expect(await stored(answer, users.dave)).toBeUndefined();
    const thread = await eventually(async() => {
      const read = await context(post.id, users.dave);
      return read.descendants.includes(answer) ? read : undefined;
    }, 60_000);
    expect(thread.descendants).toEqual([ reply, answer ]);
    expect(await context(post.id, users.erin)).toEqual({ ancestors: [], descendants: []});
  });
});
