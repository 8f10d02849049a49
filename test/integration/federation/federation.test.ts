/**
 * Federation for real: Fedpod behind an HTTPS proxy, a Fedify peer (a real ActivityPub server that
 * verifies every signature), and a second Fedpod, exchanging the documented activities.
 */
import { generateKeyPairSync, createSign, createHash } from 'node:crypto';
import { startFedifyPeer, type FedifyPeer, type ReceivedActivity } from '../../support/fedify-peer';
import { startHttpsFedpod, type HttpsFedpod } from '../../support/https-proxy';
import { httpsRequest, testTls, type TlsFiles } from '../../support/tls';
import { eventually as eventuallyWithin } from '../../support/eventually';
import { itemIds } from '../../support/collections';

const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

interface Session { token: string; webId: string }

async function signup(server: HttpsFedpod, username: string): Promise<Session> {
  const answer = await httpsRequest(`${server.baseUrl}auth/signup`, { method: 'POST',
    body: { username, email: `${username}@example.com`, password: 'correct horse' } });
  expect(answer.status).toBe(201);
  return answer.json<Session>();
}

async function postOutbox(session: Session, activity: Record<string, unknown>, token = session.token): Promise<{ status: number; body: Record<string, unknown>; location?: string }> {
  const answer = await httpsRequest(`${session.webId}/outbox`, { method: 'POST', body: JSON.stringify(activity),
    headers: { 'content-type': 'application/ld+json', ...token ? { authorization: `Bearer ${token}` } : {} } });
  return { status: answer.status, body: answer.json<Record<string, unknown>>(), location: answer.headers.location as string | undefined };
}

/** A collection page's items, read by the owner of `session` when given (others see only what is addressed to them). */
async function collection(url: string, session?: Session): Promise<string[]> {
  const answer = await httpsRequest(`${url}?page=true`, { headers: { accept: 'application/activity+json',
    ...session ? { authorization: `Bearer ${session.token}` } : {} } });
  expect(answer.status).toBe(200);
  return itemIds(answer.json<{ orderedItems: unknown }>());
}

const eventually = <T>(check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> =>
  eventuallyWithin(check, timeoutMs, 200);

describe('federation with a Fedify peer and a second Fedpod', () => {
  let tls: TlsFiles;
  let fedpod: HttpsFedpod;
  let second: HttpsFedpod;
  let peer: FedifyPeer;
  let alice: Session;

  beforeAll(async() => {
    tls = testTls();
    const started = await Promise.allSettled([
      startHttpsFedpod({ config: 'activitypub', tls }),
      // The second instance signs with RFC 9421 (falling back to draft-cavage when refused).
      startHttpsFedpod({ config: 'activitypub', tls, extraArgs: [ '--signature-scheme', 'rfc9421' ] }),
      startFedifyPeer(tls),
    ]);
    [ fedpod, second, peer ] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined)) as
      [ HttpsFedpod, HttpsFedpod, FedifyPeer ];
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    alice = await signup(fedpod, 'alice');
  });

  afterAll(async() => {
    await Promise.allSettled([ fedpod?.stop(), second?.stop(), peer?.stop() ]);
  });

  it('refuses outbox posts without a token (403), with a bad token (401), and for another user (403)', async() => {
    const note = { '@context': 'https://www.w3.org/ns/activitystreams', type: 'Note', content: 'x', to: [ AS_PUBLIC ] };
    expect((await postOutbox(alice, note, '')).status).toBe(403);
    expect((await postOutbox(alice, note, `${alice.token.slice(0, -3)}AAA`)).status).toBe(401);
    const mallory = await signup(fedpod, 'mallory');
    expect((await postOutbox(alice, note, mallory.token)).status).toBe(403);
    expect((await postOutbox(alice, { type: 'Note', actor: mallory.webId, content: 'x' })).status).toBe(403);
    const unsupported = await httpsRequest(`${alice.webId}/outbox`, { method: 'POST', body: 'text',
      headers: { 'content-type': 'text/plain', authorization: `Bearer ${alice.token}` } });
    expect(unsupported.status).toBe(415);
    const invalid = await postOutbox(alice, { content: 'no type' });
    expect(invalid.status).toBe(400);
  });

  it('Follow then Accept: the peer accepts, and appears in following', async() => {
    const posted = await postOutbox(alice, { '@context': 'https://www.w3.org/ns/activitystreams', type: 'Follow',
      actor: alice.webId, object: peer.actorUrl, to: [ peer.actorUrl ] });
    expect(posted.status).toBe(201);
    expect(posted.location).toMatch(new RegExp(`^${fedpod.baseUrl}activities/`, 'u'));
    const follow = await peer.waitFor((activity) => activity.type === 'Follow' && activity.actor === alice.webId);
    expect(follow.verified).toBe(true);
    expect(follow.id).toBe(posted.location);
    await eventually(async() => (await collection(`${alice.webId}/following`)).includes(peer.actorUrl) ? true : undefined);
    // The Accept is listed in the inbox once all its side effects are done (following comes first).
    const inbox = await eventually(async() => {
      const items = await collection(`${alice.webId}/inbox`, alice);
      return items.length > 0 ? items : undefined;
    });
    expect(inbox).toHaveLength(1);
  });

  it('the peer follows back: the Follow arrives in the inbox, the peer in followers, and it gets an Accept', async() => {
    await peer.follow(alice.webId);
    await eventually(async() => (await collection(`${alice.webId}/followers`)).includes(peer.actorUrl) ? true : undefined);
    const accept = await peer.waitFor((activity) => activity.type === 'Accept' && activity.actor === alice.webId);
    expect(accept.verified).toBe(true);
  });

  it('a Note to followers reaches the peer with a signature it verifies, and is served as an object', async() => {
    const posted = await postOutbox(alice, { '@context': 'https://www.w3.org/ns/activitystreams', type: 'Note',
      content: 'Hello, fediverse', to: [ `${alice.webId}/followers` ], bcc: [ 'https://example.invalid/secret' ] });
    expect(posted.status).toBe(201);
    expect(posted.body.type).toBe('Create');
    const create = await peer.waitFor((activity) => activity.type === 'Create' && activity.id === posted.location);
    expect(create.verified).toBe(true);
    expect(JSON.stringify(create.raw)).toContain('Hello, fediverse');
    expect(JSON.stringify(create.raw)).not.toContain('example.invalid/secret');
    const objectId = (posted.body.object as { id: string }).id;
    // Followers-only: 404 to anyone else, served to its author.
    expect((await httpsRequest(objectId, { headers: { accept: 'application/activity+json' } })).status).toBe(404);
    const object = await httpsRequest(objectId, { headers: { accept: 'application/activity+json', authorization: `Bearer ${alice.token}` } });
    expect(object.json<Record<string, unknown>>()).toMatchObject({ id: objectId, type: 'Note', content: 'Hello, fediverse',
      attributedTo: alice.webId });
    expect(await collection(`${alice.webId}/outbox`, alice)).toContain(posted.location);
    expect(await collection(`${alice.webId}/outbox`)).not.toContain(posted.location);
  });

  it('Delete leaves a Tombstone: the object then answers 410; others may not delete it', async() => {
    const posted = await postOutbox(alice, { type: 'Note', content: 'short-lived', to: [ AS_PUBLIC ] });
    const objectId = (posted.body.object as { id: string }).id;
    const other = await signup(fedpod, 'other');
    expect((await postOutbox(other, { type: 'Delete', object: objectId })).status).toBe(403);
    expect((await postOutbox(alice, { type: 'Delete', object: objectId, to: [ AS_PUBLIC ] })).status).toBe(201);
    expect((await httpsRequest(objectId, { headers: { accept: 'application/activity+json' } })).status).toBe(410);
  });

  it('refuses unsigned, forged and replayed deliveries with 401 and keeps nothing', async() => {
    const inbox = `${alice.webId}/inbox`;
    const activity = { '@context': 'https://www.w3.org/ns/activitystreams', id: `${peer.url}forged/1`, type: 'Create',
      actor: peer.actorUrl, object: { id: `${peer.url}forged/note`, type: 'Note', content: 'forged', attributedTo: peer.actorUrl } };
    const body = JSON.stringify(activity);
    const before = (await collection(inbox, alice)).length;

    const unsigned = await httpsRequest(inbox, { method: 'POST', body, headers: { 'content-type': 'application/activity+json' } });
    expect(unsigned.status).toBe(401);

    // Signed with a key that is not the peer's, claiming the peer's key id.
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const sign = (date: string): Record<string, string> => {
      const digest = `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
      const host = new URL(inbox).host;
      const path = new URL(inbox).pathname;
      const signed = `(request-target): post ${path}\nhost: ${host}\ndate: ${date}\ndigest: ${digest}`;
      const signature = createSign('sha256').update(signed).sign(privateKey, 'base64');
      return { 'content-type': 'application/activity+json', date, digest,
        signature: `keyId="${peer.actorUrl}#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="${signature}"` };
    };
    const forged = await httpsRequest(inbox, { method: 'POST', body, headers: sign(new Date().toUTCString()) });
    expect(forged.status).toBe(401);
    expect(forged.json<{ error: string }>().error).toBe('invalid_signature');
    const stale = await httpsRequest(inbox, { method: 'POST', body, headers: sign(new Date(Date.now() - 13 * 3600_000).toUTCString()) });
    expect(stale.status).toBe(401);

    // A real, verified delivery sent twice is processed once.
    const sent = await peer.send({ type: 'Create', to: [ alice.webId ], object: { type: 'Note', content: 'twice', attributedTo: peer.actorUrl } });
    await peer.send({ ...sent.activity });
    await eventually(async() => (await collection(inbox, alice)).includes(sent.id) ? true : undefined);
    const items = await collection(inbox, alice);
    expect(items.filter((item) => item === sent.id)).toHaveLength(1);
    expect(items.some((item) => item.includes('forged'))).toBe(false);
    expect(items.length).toBe(before + 1);
  });

  it('the owner reads the inbox as activities: the peer\'s Accept with the Follow it answers, its Follow, its Note', async() => {
    const sent = await peer.send({ type: 'Create', to: [ alice.webId ],
      object: { type: 'Note', content: 'read me in the inbox', attributedTo: peer.actorUrl } });
    const page = async(session?: Session): Promise<Record<string, unknown>[]> => {
      const answer = await httpsRequest(`${alice.webId}/inbox?page=true`, { headers: { accept: 'application/activity+json',
        ...session ? { authorization: `Bearer ${session.token}` } : {} } });
      expect(answer.status).toBe(200);
      return answer.json<{ orderedItems: Record<string, unknown>[] }>().orderedItems;
    };
    const items = await eventually(async() => {
      const current = await page(alice);
      return current.some((item) => item.id === sent.id) ? current : undefined;
    });
    expect(items.find((item) => item.id === sent.id)).toMatchObject({ type: 'Create', actor: peer.actorUrl,
      object: { type: 'Note', content: 'read me in the inbox', attributedTo: peer.actorUrl } });
    expect(items.find((item) => item.type === 'Accept')).toMatchObject({ actor: peer.actorUrl,
      object: { type: 'Follow', actor: alice.webId, object: peer.actorUrl } });
    expect(items.find((item) => item.type === 'Follow')).toMatchObject({ actor: peer.actorUrl, object: alice.webId });
    // Addressed to alice alone: nobody else sees it.
    expect((await page()).some((item) => item.id === sent.id)).toBe(false);
  });

  it('serves received copies at /remote?id= to those who may read them, followers-only ones to followers who got them', async() => {
    const peerActor = (await httpsRequest(peer.actorUrl, { headers: { accept: 'application/activity+json' } })).json<{ followers: string }>();
    const direct = await peer.send({ type: 'Create', to: [ alice.webId ],
      object: { type: 'Note', content: 'just for alice', attributedTo: peer.actorUrl, to: [ alice.webId ] } });
    const followersOnly = await peer.send({ type: 'Create', to: [ peerActor.followers ],
      object: { type: 'Note', content: 'for my followers', attributedTo: peer.actorUrl, to: [ peerActor.followers ] } });
    await eventually(async() => {
      const items = await collection(`${alice.webId}/inbox`, alice);
      return items.includes(direct.id) && items.includes(followersOnly.id) ? true : undefined;
    });
    const other = await signup(fedpod, 'remote-reader');
    const read = async(iri: string, session?: Session): Promise<{ status: number; body: Record<string, unknown> }> => {
      const answer = await httpsRequest(`${fedpod.baseUrl}remote?id=${encodeURIComponent(iri)}`, { headers: {
        accept: 'application/activity+json', ...session ? { authorization: `Bearer ${session.token}` } : {} } });
      return { status: answer.status, body: answer.json<Record<string, unknown>>() };
    };
    for (const sent of [ direct, followersOnly ]) {
      const note = (sent.activity.object as { id: string }).id;
      const activity = await read(sent.id, alice);
      expect(activity.status).toBe(200);
      expect(activity.body).toMatchObject({ id: sent.id, type: 'Create', object: { id: note } });
      expect((await read(note, alice)).body).toMatchObject({ id: note, type: 'Note', attributedTo: peer.actorUrl });
      // Not addressed to them, not in their inbox: as if nothing were there.
      expect((await read(note, other)).status).toBe(404);
      expect((await read(note)).status).toBe(404);
    }
    expect((await read('https://elsewhere.example/never-seen', alice)).status).toBe(404);
    const local = await read(`${fedpod.baseUrl}objects/anything`, alice);
    expect(local.status).toBe(400);
    expect(local.body).toMatchObject({ error: 'local_id' });
    const missing = await httpsRequest(`${fedpod.baseUrl}remote`, { headers: { accept: 'application/activity+json' } });
    expect(missing.status).toBe(400);
    expect(missing.json<{ error: string }>().error).toBe('invalid_id');
  });

  it('two Fedpod instances federate: a follower on the second gets the first one\'s notes', async() => {
    const bob = await signup(second, 'bob');
    expect((await postOutbox(bob, { type: 'Follow', object: alice.webId })).status).toBe(201);
    await eventually(async() => (await collection(`${alice.webId}/followers`)).includes(bob.webId) ? true : undefined);
    await eventually(async() => (await collection(`${bob.webId}/following`)).includes(alice.webId) ? true : undefined);
    const posted = await postOutbox(alice, { type: 'Note', content: 'to both servers', to: [ `${alice.webId}/followers` ] });
    await eventually(async() => (await collection(`${bob.webId}/inbox`, bob)).includes(posted.location!) ? true : undefined);
    await peer.waitFor((activity: ReceivedActivity) => activity.id === posted.location);
  });

  it('signs with RFC 9421 when configured, and the peer verifies it', async() => {
    const carol = await signup(second, 'carol');
    const follow = await postOutbox(carol, { type: 'Follow', object: peer.actorUrl });
    const received = await peer.waitFor((activity) => activity.id === follow.location);
    expect(received).toMatchObject({ verified: true, signatureScheme: 'rfc9421' });
  });
});
