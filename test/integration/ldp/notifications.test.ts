/**
 * Solid notifications in the LDP setup: WebSocketChannel2023 with a plain WebSocket client, and
 * WebhookChannel2023 with a real HTTP receiver, for writes by every path (Fedpod's fast POST and file
 * PUT, CSS's PUT and DELETE); webhook subscriptions outlive a restart.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { NOTIFY, type Notification, requestSubscription, subscribeWebSocket } from '../../support/notifications';
import { freePort } from '../../support/ports';
import { makeTempDir } from '../../support/processes';
import { TestIssuer } from '../../support/test-issuer';


describe('Solid notifications in the LDP setup', () => {
  let server: FedpodServer;
  let notes: string;
  const issuer = new TestIssuer();
  let owner: Record<string, string>;
  const sockets: WebSocket[] = [];

  beforeAll(async() => {
    await issuer.start();
    owner = { authorization: `Bearer ${await issuer.token(issuer.webId('owner'))}` };
    // The test issuer is on loopback: the server reads its WebIDs and keys only with --allow-private-network.
    server = await startFedpod({ config: 'ldp', allowPrivateNetwork: true });
    notes = `${server.baseUrl}notes/`;
  });

  afterAll(async() => {
    for (const socket of sockets) {
      socket.terminate();
    }
    await server?.stop();
    await issuer.stop();
  });

  /** Subscribes to `topic`, found from the storage description, and resolves once the socket is open. */
  async function subscribe(topic: string): Promise<Notification[]> {
    const description = await (await fetch(`${server.baseUrl}.well-known/solid`, { headers: { accept: 'text/turtle' } })).text();
    expect(description).toContain(`${NOTIFY}WebSocketChannel2023`);
    return subscribeWebSocket(server.baseUrl, topic, sockets);
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

describe('WebhookChannel2023 in the LDP setup', () => {
  let server: FedpodServer;
  let receiver: Server;
  let sendTo: string;
  let port: number;
  let dataDir: string;
  const delivered: { headers: Record<string, string | string[] | undefined>; body: Notification }[] = [];

  async function start(): Promise<FedpodServer> {
    // The receiver listens on loopback, which notifications reach only with --allow-private-network.
    return startFedpod({ config: 'ldp', port, dataDir, allowPrivateNetwork: true });
  }

  beforeAll(async() => {
    receiver = createServer((request, response): void => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer): number => chunks.push(chunk));
      request.on('end', (): void => {
        delivered.push({ headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Notification });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve): void => {
      receiver.listen(0, '127.0.0.1', resolve);
    });
    sendTo = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    port = await freePort();
    dataDir = makeTempDir('fedpod-webhook-channel');
    server = await start();
  });

  afterAll(async() => {
    await server?.stop();
    await new Promise((resolve): void => {
      receiver.close(resolve);
    });
  });

  it('is offered by the storage description, and POSTs each change to the subscriber, signed', async() => {
    const description = await (await fetch(`${server.baseUrl}.well-known/solid`, { headers: { accept: 'text/turtle' }})).text();
    expect(description).toContain(`${NOTIFY}WebhookChannel2023`);
    const topic = `${server.baseUrl}notes/`;
    const answer = await requestSubscription(server.baseUrl, topic, {}, 'WebhookChannel2023', { sendTo });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(expect.objectContaining({ topic, sendTo }));
    const posted = await fetch(topic, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'a file' });
    expect(posted.status).toBe(201);
    const member = posted.headers.get('location')!;
    await eventually(async(): Promise<boolean> => delivered.some(({ body }): boolean => body.type === 'Add' && body.object === member));
    const notification = delivered.find(({ body }): boolean => body.object === member)!;
    expect(notification.headers.authorization).toMatch(/^DPoP /u);
    expect(notification.headers.dpop).toBeDefined();
  });

  it('keeps the subscription across a restart', async() => {
    await server.stop();
    server = await start();
    const posted = await fetch(`${server.baseUrl}notes/`, { method: 'POST', headers: { 'content-type': 'text/turtle' },
      body: '<> <http://purl.org/dc/terms/title> "after the restart" .' });
    expect(posted.status).toBe(201);
    const member = posted.headers.get('location')!;
    await eventually(async(): Promise<boolean> => delivered.some(({ body }): boolean => body.type === 'Add' && body.object === member));
  });
});
