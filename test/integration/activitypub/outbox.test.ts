/**
 * Outbox side effects between local actors (no remote peer needed): Like, Undo, Update, Delete,
 * validation, and delivery between local inboxes through the queue.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { itemIds } from '../../support/collections';

const AS = 'https://www.w3.org/ns/activitystreams';

interface Session { token: string; webId: string }

describe('outbox side effects', () => {
  let server: FedpodServer;
  let alice: Session;
  let bob: Session;

  async function signup(username: string): Promise<Session> {
    const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, email: `${username}@example.com`, password: 'correct horse' }) });
    expect(response.status).toBe(201);
    return await response.json() as Session;
  }

  async function post(session: Session, activity: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${session.webId}/outbox`, { method: 'POST', body: JSON.stringify(activity),
      headers: { 'content-type': 'application/activity+json', authorization: `Bearer ${session.token}` } });
    return { status: response.status, body: await response.json() as Record<string, unknown> };
  }

  /** A collection page's items, read by the collection's owner when a token is given (anonymous readers see public items only). */
  async function items(url: string, token?: string): Promise<string[]> {
    const response = await fetch(`${url}?page=true`, { headers: { accept: 'application/activity+json',
      ...token ? { authorization: `Bearer ${token}` } : {} } });
    return itemIds(await response.json() as { orderedItems: unknown });
  }

  async function eventually(check: () => Promise<boolean>): Promise<void> {
    const until = Date.now() + 15_000;
    while (!await check()) {
      if (Date.now() > until) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub', allowPrivateNetwork: true });
    alice = await signup('alice');
    bob = await signup('bob');
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('wraps a bare Note in a Create with minted ids, published and attributedTo', async() => {
    const { status, body } = await post(alice, { '@context': AS, type: 'Note', content: 'hello', to: [ `${AS}#Public` ] });
    expect(status).toBe(201);
    expect(body).toMatchObject({ type: 'Create', actor: alice.webId, to: [ `${AS}#Public` ] });
    expect(String(body.id)).toMatch(new RegExp(`^${server.baseUrl}activities/`, 'u'));
    const object = body.object as Record<string, string>;
    expect(object.id).toMatch(new RegExp(`^${server.baseUrl}objects/`, 'u'));
    expect(object).toMatchObject({ type: 'Note', content: 'hello', attributedTo: alice.webId });
    expect(Date.parse(object.published)).not.toBeNaN();
    expect(await items(`${alice.webId}/outbox`, alice.token)).toContain(body.id);
  });

  it('serves outbox and inbox pages with each activity and its object embedded, blind copies to the owner only', async() => {
    const { body } = await post(alice, { type: 'Note', content: 'embedded for all', to: [ `${AS}#Public`, bob.webId ],
      bcc: [ `${server.baseUrl}actors/secret-friend` ] });
    const page = async(url: string, token?: string): Promise<Record<string, unknown>[]> => {
      const response = await fetch(`${url}?page=true`, { headers: { accept: 'application/activity+json',
        ...token ? { authorization: `Bearer ${token}` } : {} } });
      expect(response.status).toBe(200);
      return (await response.json() as { orderedItems: Record<string, unknown>[] }).orderedItems;
    };
    const expected = { id: body.id, type: 'Create', actor: alice.webId,
      object: { id: (body.object as { id: string }).id, type: 'Note', content: 'embedded for all', attributedTo: alice.webId } };
    const owners = await page(`${alice.webId}/outbox`, alice.token);
    expect(owners[0]).toMatchObject({ ...expected, bcc: `${server.baseUrl}actors/secret-friend` });
    const anonymous = await page(`${alice.webId}/outbox`);
    expect(anonymous[0]).toMatchObject(expected);
    expect(JSON.stringify(anonymous)).not.toContain('secret-friend');
    // Nor does the activity served alone show its object's blind copies.
    const served = await (await fetch(body.id as string, { headers: { accept: 'application/activity+json' } })).text();
    expect(served).toContain('embedded for all');
    expect(served).not.toContain('secret-friend');
    // Bob reads it in his own inbox, as the activity it is.
    await eventually(async() => (await items(`${bob.webId}/inbox`, bob.token)).includes(body.id as string));
    const inbox = await page(`${bob.webId}/inbox`, bob.token);
    expect(inbox.find((item) => item.id === body.id)).toMatchObject(expected);
    // Followers, following and liked stay lists of IRIs.
    for (const name of [ 'followers', 'following', 'liked' ]) {
      expect((await page(`${alice.webId}/${name}`)).every((item) => typeof item === 'string')).toBe(true);
    }
  });

  it('Like adds to liked, Undo of the Like removes it', async() => {
    const note = (await post(bob, { type: 'Note', content: 'like me', to: [ alice.webId ] })).body.object as { id: string };
    const like = await post(alice, { type: 'Like', object: note.id });
    expect(like.status).toBe(201);
    expect(await items(`${alice.webId}/liked`)).toContain(note.id);
    expect((await post(alice, { type: 'Undo', object: like.body.id })).status).toBe(201);
    expect(await items(`${alice.webId}/liked`)).not.toContain(note.id);
  });

  it('delivers between local actors: a Note to bob lands in his inbox', async() => {
    const { body } = await post(alice, { type: 'Note', content: 'for bob', to: [ bob.webId ] });
    await eventually(async() => (await items(`${bob.webId}/inbox`, bob.token)).includes(body.id as string));
    expect(await items(`${bob.webId}/inbox`)).not.toContain(body.id);
  });

  it('Follow, Accept and Undo between local actors update followers and following', async() => {
    const follow = await post(bob, { type: 'Follow', object: alice.webId });
    expect(follow.status).toBe(201);
    await eventually(async() => (await items(`${bob.webId}/following`)).includes(alice.webId));
    expect(await items(`${alice.webId}/followers`)).toContain(bob.webId);
    expect((await post(bob, { type: 'Undo', object: follow.body.id })).status).toBe(201);
    expect(await items(`${bob.webId}/following`)).not.toContain(alice.webId);
    await eventually(async() => !(await items(`${alice.webId}/followers`)).includes(bob.webId));
  });

  it('Update changes the owner\'s object; others get 403; Delete leaves a 410 Tombstone', async() => {
    const object = (await post(alice, { type: 'Note', content: 'first draft' })).body.object as { id: string };
    expect((await post(bob, { type: 'Update', object: { id: object.id, type: 'Note', content: 'hijacked' } })).status).toBe(403);
    expect((await post(alice, { type: 'Update', object: { id: object.id, type: 'Note', content: 'second draft' } })).status).toBe(201);
    // Addressed to nobody: the author reads it, anyone else gets 404.
    expect((await fetch(object.id, { headers: { accept: 'application/activity+json' } })).status).toBe(404);
    const read = await fetch(object.id, { headers: { accept: 'application/activity+json', authorization: `Bearer ${alice.token}` } });
    expect(await read.json()).toMatchObject({ id: object.id, content: 'second draft', attributedTo: alice.webId });
    expect((await post(bob, { type: 'Delete', object: object.id })).status).toBe(403);
    expect((await post(alice, { type: 'Delete', object: object.id })).status).toBe(201);
    expect((await fetch(object.id, { headers: { accept: 'application/activity+json' } })).status).toBe(410);
  });

  it('refuses invalid activities with 400 and writes nothing', async() => {
    const before = (await items(`${alice.webId}/outbox`, alice.token)).length;
    for (const body of [ { content: 'no type' }, [ 1, 2 ], { type: 'Like' }, { type: 'Follow' },
      { type: 'Create', object: 'not an object' } ]) {
      const answer = await post(alice, body);
      expect(answer.status).toBe(400);
      expect(typeof answer.body.error).toBe('string');
    }
    const malformed = await fetch(`${alice.webId}/outbox`, { method: 'POST', body: '{"type":',
      headers: { 'content-type': 'application/activity+json', authorization: `Bearer ${alice.token}` } });
    expect(malformed.status).toBe(400);
    expect((await items(`${alice.webId}/outbox`, alice.token)).length).toBe(before);
  });

  it('fetches remote actors with GETs signed by the instance actor, which it serves', async() => {
    const instance = await (await fetch(`${server.baseUrl}actors/instance`, { headers: { accept: 'application/activity+json' } })).json() as
      { type: string; publicKey: { id: string } };
    expect(instance).toMatchObject({ type: 'Application', publicKey: { id: `${server.baseUrl}actors/instance#main-key` } });
    const seen: http.IncomingHttpHeaders[] = [];
    const remote = http.createServer((request, response) => {
      seen.push(request.headers);
      const port = (remote.address() as AddressInfo).port;
      const id = `http://127.0.0.1:${port}/users/zed`;
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'application/activity+json' });
        response.end(JSON.stringify({ '@context': AS, id, type: 'Person', inbox: `${id}/inbox` }));
      } else {
        request.resume();
        response.writeHead(202);
        response.end();
      }
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    try {
      const target = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/users/zed`;
      expect((await post(alice, { type: 'Follow', object: target })).status).toBe(201);
      await eventually(async() => seen.some((headers) => headers['content-type']?.includes('activity+json') && Boolean(headers.signature)));
      const get = seen.find((headers) => headers.accept?.includes('activity+json'));
      expect(get?.signature).toContain(`keyId="${server.baseUrl}actors/instance#main-key"`);
      const delivery = seen.find((headers) => headers['content-type']?.includes('activity+json'))!;
      expect(delivery.signature).toContain(`keyId="${alice.webId}#main-key"`);
      expect(delivery.digest).toMatch(/^SHA-256=/u);
    } finally {
      remote.close();
      remote.closeAllConnections();
    }
  });
});
