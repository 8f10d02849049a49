/**
 * Solid notifications (WebSocketChannel2023) in the LDP setup: the real server, a plain WebSocket
 * client, and writes by every path (Fedpod's fast POST and file PUT, CSS's PUT and DELETE).
 */
import WebSocket from 'ws';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { TestIssuer } from '../../support/test-issuer';

const NOTIFY = 'http://www.w3.org/ns/solid/notifications#';

interface Notification {
  type: string;
  object: string;
  target?: string;
}

describe('Solid notifications in the LDP setup', () => {
  let server: FedpodServer;
  let notes: string;
  const issuer = new TestIssuer();
  let owner: Record<string, string>;
  const sockets: WebSocket[] = [];

  beforeAll(async() => {
    await issuer.start();
    owner = { authorization: `Bearer ${await issuer.token(issuer.webId('owner'))}` };
    server = await startFedpod({ config: 'ldp' });
    notes = `${server.baseUrl}notes/`;
  });

  afterAll(async() => {
    for (const socket of sockets) {
      socket.terminate();
    }
    await server?.stop();
    await issuer.stop();
  });

  /** Subscribes to `topic` and resolves once the socket is open, with what it receives. */
  async function subscribe(topic: string): Promise<Notification[]> {
    const description = await (await fetch(`${server.baseUrl}.well-known/solid`, { headers: { accept: 'text/turtle' } })).text();
    expect(description).toContain(`${NOTIFY}WebSocketChannel2023`);
    const answer = await fetch(`${server.baseUrl}.notifications/WebSocketChannel2023/`, {
      method: 'POST',
      headers: { 'content-type': 'application/ld+json' },
      body: JSON.stringify({ '@context': [ 'https://www.w3.org/ns/solid/notification/v1' ], type: `${NOTIFY}WebSocketChannel2023`, topic }),
    });
    expect(answer.status).toBe(200);
    const { receiveFrom } = await answer.json() as { receiveFrom: string };
    const received: Notification[] = [];
    const socket = new WebSocket(receiveFrom);
    sockets.push(socket);
    socket.on('message', (message: Buffer): void => {
      received.push(JSON.parse(message.toString('utf8')) as Notification);
    });
    await new Promise<void>((resolve, reject): void => {
      socket.once('open', (): void => resolve());
      socket.once('error', reject);
    });
    return received;
  }

  it('tells a container\'s subscribers of every member added, whichever handler wrote it', async() => {
    const received = await subscribe(notes);
    const posted = await fetch(notes, { method: 'POST', headers: { 'content-type': 'text/turtle' }, body: '<> <http://purl.org/dc/terms/title> "n" .' });
    const file = `${notes}notified.txt`;
    const put = await fetch(file, { method: 'PUT', headers: { 'content-type': 'text/plain', ...owner }, body: 'x' });
    const turtle = `${notes}notified.ttl`;
    const cssPut = await fetch(turtle, { method: 'PUT', headers: { 'content-type': 'text/turtle', ...owner }, body: '<> <http://purl.org/dc/terms/title> "t" .' });
    expect([ posted.status, put.status, cssPut.status ]).toEqual([ 201, 201, 201 ]);
    const added = [ posted.headers.get('location')!, file, turtle ];
    await eventually(async(): Promise<boolean> => added.every((iri): boolean =>
      received.some((notification): boolean => notification.type === 'Add' && notification.object === iri)));
  });

  it('tells a resource\'s subscribers of its updates and its deletion', async() => {
    const file = `${notes}watched.txt`;
    expect((await fetch(file, { method: 'PUT', headers: { 'content-type': 'text/plain', ...owner }, body: 'one' })).status).toBe(201);
    const received = await subscribe(file);
    expect((await fetch(file, { method: 'PUT', headers: { 'content-type': 'text/plain', ...owner }, body: 'two' })).status).toBe(205);
    await eventually(async(): Promise<boolean> => received.some((notification): boolean =>
      notification.type === 'Update' && notification.object === file));
    expect((await fetch(file, { method: 'DELETE', headers: owner })).status).toBe(205);
    await eventually(async(): Promise<boolean> => received.some((notification): boolean =>
      notification.type === 'Delete' && notification.object === file));
  });
});
