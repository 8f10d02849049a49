/**
 * Inrupt's notification library (`@inrupt/solid-client-notifications`) finds Fedpod's notification
 * gateway in the storage description and gets a socket, out of the box: on `ldp-wac` with a Solid-OIDC
 * session (@inrupt/solid-client-authn-node, client credentials, DPoP), and in the ActivityPub setup
 * with a Fedpod token. Who may not read the topic gets no socket.
 */
import { WebsocketNotification } from '@inrupt/solid-client-notifications';
import { Session } from '@inrupt/solid-client-authn-node';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { signup, type Session as Account } from '../../support/local-actors';

interface Client { id: string; secret: string; issuer: string }
interface Heard { type?: string; object?: string }

const AS = 'https://www.w3.org/ns/activitystreams';

/** Connects and collects what the socket hears; the notification is added to `open` for closing. */
async function listen(notification: WebsocketNotification, open: WebsocketNotification[]): Promise<Heard[]> {
  const heard: Heard[] = [];
  notification.on('message', (message: Heard): void => {
    heard.push(message);
  });
  const connected = new Promise<void>((resolve, reject): void => {
    notification.on('connected', (): void => resolve());
    notification.on('error', reject);
  });
  open.push(notification);
  await notification.connect();
  await connected;
  return heard;
}

describe('Inrupt\'s notification library against Fedpod', () => {
  const open: WebsocketNotification[] = [];
  const sessions: Session[] = [];

  afterEach(() => {
    for (const notification of open.splice(0)) {
      notification.disconnect();
    }
  });

  afterAll(async() => {
    await Promise.allSettled(sessions.map(async(session): Promise<void> => session.logout()));
  });

  describe('on ldp-wac, with a Solid-OIDC session', () => {
    let server: FedpodServer;
    let alice: Account;
    let session: Session;
    const storage = (): string => `${server.baseUrl}pods/alice/`;

    beforeAll(async() => {
      server = await startFedpod({ config: 'ldp-wac' });
      alice = await signup(server.baseUrl, 'alice');
      await signup(server.baseUrl, 'bob');
      const made = await fetch(`${server.baseUrl}auth/clients`, { method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.token}` }, body: JSON.stringify({ name: 'listener' }) });
      expect(made.status).toBe(201);
      const client = await made.json() as Client;
      session = new Session();
      sessions.push(session);
      await session.login({ clientId: client.id, clientSecret: client.secret, oidcIssuer: client.issuer, tokenType: 'DPoP' });
    });

    afterAll(async() => {
      await server?.stop();
    });

    it('names the gateway in the storage description, beside CSS\'s subscription services', async() => {
      const description = await (await fetch(`${server.baseUrl}.well-known/solid`, { headers: { accept: 'text/turtle' }})).text();
      expect(description).toContain('<http://www.w3.org/ns/solid/terms#notificationGateway> <../.notifications/gateway/>');
      expect(description).toContain('<http://www.w3.org/ns/solid/notifications#subscription>');
    });

    it('connects with the session and hears a change of the pod document', async() => {
      const document = `${storage()}watched.ttl`;
      const put = async(text: string): Promise<void> => {
        const answer = await session.fetch(document, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: `<#it> <#says> "${text}".` });
        expect(answer.status).toBeLessThan(300);
      };
      await put('first');
      const heard = await listen(new WebsocketNotification(document, { fetch: session.fetch }), open);
      await put('second');
      await eventually(async() => heard.some(({ type, object }): boolean => type === 'Update' && object === document) ? true : undefined);
    });

    it('gives no socket to whoever may not read the topic', async() => {
      const secret = `${storage()}private/`;
      expect((await session.fetch(`${secret}x.txt`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'x' })).status)
        .toBeLessThan(300);
      await expect(new WebsocketNotification(secret).connect()).rejects.toThrow();
      const answer = await fetch(`${server.baseUrl}.notifications/gateway/websocket/`, { method: 'POST',
        headers: { 'content-type': 'application/json' }, body: JSON.stringify({ topic: secret }) });
      expect([ 401, 403 ]).toContain(answer.status);
      expect(await answer.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    });

    it('refuses what it does not offer with a JSON error', async() => {
      const other = await fetch(`${server.baseUrl}.notifications/gateway/`, { method: 'POST',
        headers: { 'content-type': 'application/json' }, body: JSON.stringify({ protocols: [ 'http' ]}) });
      expect(other.status).toBe(422);
      expect(await other.json()).toMatchObject({ error: 'unsupported_protocol' });
      const broken = await fetch(`${server.baseUrl}.notifications/gateway/websocket/`, { method: 'POST',
        headers: { 'content-type': 'application/json' }, body: '{"topic":' });
      expect(broken.status).toBe(400);
      const noTopic = await fetch(`${server.baseUrl}.notifications/gateway/websocket/`, { method: 'POST',
        headers: { 'content-type': 'application/json' }, body: JSON.stringify({ topic: 42 }) });
      expect(noTopic.status).toBe(400);
    });
  });

  describe('in the ActivityPub setup, with a Fedpod token', () => {
    let server: FedpodServer;
    let alice: Account;

    beforeAll(async() => {
      server = await startFedpod({ config: 'activitypub' });
      alice = await signup(server.baseUrl, 'alice');
    });

    afterAll(async() => {
      await server?.stop();
    });

    it('hears the outbox grow', async() => {
      const outbox = `${alice.webId}/outbox`;
      const withToken = async(url: RequestInfo | URL, init: RequestInit = {}): Promise<Response> =>
        fetch(url, { ...init, headers: { ...init.headers as Record<string, string>, authorization: `Bearer ${alice.token}` }});
      const heard = await listen(new WebsocketNotification(outbox, { fetch: withToken }), open);
      const posted = await withToken(outbox, { method: 'POST', headers: { 'content-type': 'application/activity+json' },
        body: JSON.stringify({ '@context': AS, type: 'Note', content: 'hello', to: [ `${AS}#Public` ] }) });
      expect(posted.status).toBe(201);
      await eventually(async() => heard.some(({ object }): boolean => object === outbox) ? true : undefined);
    });
  });
});
