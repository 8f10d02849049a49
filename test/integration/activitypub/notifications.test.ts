/**
 * Solid notifications in the ActivityPub setup: a subscription is judged by the audience rules (as a
 * GET of its topic), and ActivityPub side effects (an outbox POST, an object's Update) and webhook
 * actions are announced like any LDP write. The real server and a plain WebSocket client.
 */
import type WebSocket from 'ws';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { NOTIFY, type Notification, requestSubscription, subscribeWebSocket } from '../../support/notifications';

interface Session { token: string; webId: string }

describe('Solid notifications in the ActivityPub setup', () => {
  let server: FedpodServer;
  const sessions: Record<string, Session> = {};
  const sockets: WebSocket[] = [];

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
    for (const username of [ 'alice', 'bob', 'carol' ]) {
      const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: `${username}@example.com`, password: 'correct horse battery' }) });
      expect(response.status).toBe(201);
      sessions[username] = await response.json() as Session;
    }
  });

  afterAll(async() => {
    for (const socket of sockets) {
      socket.terminate();
    }
    await server?.stop();
  });

  const as = (username?: string): Record<string, string> => (username ? { authorization: `Bearer ${sessions[username].token}` } : {});

  const subscribeStatus = async(topic: string, username?: string): Promise<Response> =>
    requestSubscription(server.baseUrl, topic, as(username));
  const subscribe = async(topic: string, username?: string): Promise<Notification[]> =>
    subscribeWebSocket(server.baseUrl, topic, sockets, as(username));

  async function postNote(content: string, to: string[]): Promise<string> {
    const posted = await fetch(`${server.baseUrl}actors/alice/outbox`, { method: 'POST',
      headers: { 'content-type': 'application/ld+json', ...as('alice') },
      body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Note', content, to }) });
    expect(posted.status).toBe(201);
    const activity = await (await fetch(posted.headers.get('location')!, { headers: { accept: 'application/activity+json', ...as('alice') }}))
      .json() as { object: string | { id: string } };
    return typeof activity.object === 'string' ? activity.object : activity.object.id;
  }

  it('is offered by the storage description', async() => {
    const description = await (await fetch(`${server.baseUrl}.well-known/solid`, { headers: { accept: 'text/turtle' }})).text();
    expect(description).toContain(`${NOTIFY}WebSocketChannel2023`);
    expect(description).toContain(`${NOTIFY}WebhookChannel2023`);
  });

  it('lets only who may read a direct message subscribe to it, and tells them of its update', async() => {
    const note = await postNote('for bob only', [ sessions.bob.webId ]);
    expect((await subscribeStatus(note)).status).toBe(401);
    expect([ 403, 404 ]).toContain((await subscribeStatus(note, 'carol')).status);
    const bobHears = await subscribe(note, 'bob');
    const updated = await fetch(note, { method: 'PUT', headers: { 'content-type': 'application/activity+json', ...as('alice') },
      body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: note, type: 'Note', content: 'for bob only, edited',
        attributedTo: sessions.alice.webId, to: [ sessions.bob.webId ] }) });
    expect(updated.status).toBeLessThan(300);
    await eventually(async(): Promise<boolean> => bobHears.some(({ type, object }): boolean => type === 'Update' && object === note));
  });

  it('tells subscribers of an outbox that it grew when its owner posts', async() => {
    const outbox = `${server.baseUrl}actors/alice/outbox`;
    const heard = await subscribe(outbox, 'carol');
    await postNote('hello everyone', [ 'https://www.w3.org/ns/activitystreams#Public' ]);
    await eventually(async(): Promise<boolean> => heard.some(({ type, object }): boolean => type === 'Update' && object === outbox));
  });

  it('announces what a webhook action stores, to its owner only', async() => {
    const generated = await fetch(`${server.baseUrl}webhooks`, { method: 'POST',
      headers: { 'content-type': 'application/json', ...as('alice') }, body: JSON.stringify({ action: 'store-in-container' }) });
    expect(generated.status).toBe(201);
    const container = `${server.baseUrl}webhook-data/alice/`;
    expect([ 403, 404 ]).toContain((await subscribeStatus(container, 'bob')).status);
    const heard = await subscribe(container, 'alice');
    const delivered = await fetch(generated.headers.get('location')!, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reading: 21.5 }) });
    expect(delivered.status).toBe(202);
    await eventually(async(): Promise<boolean> => heard.some(({ type }): boolean => type === 'Add'), 30_000);
  });
});
