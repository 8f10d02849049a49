import { OriginPools } from '../../../../../src/plugins/activitypub/fetch/OriginPools';
import { guardedConnector } from '../../../../../src/plugins/outbound/GuardedDispatcher';
import { SsrfGuard } from '../../../../../src/plugins/outbound/SsrfGuard';
import { LocalServer } from './localServer';

function poolsFor(options: Partial<ConstructorParameters<typeof OriginPools>[0]> = {}): OriginPools {
  return new OriginPools({
    connect: guardedConnector(new SsrfGuard(true), { timeout: 2_000 }),
    connectionsPerOrigin: 4,
    idleMs: 30_000,
    maxSockets: 512,
    timeoutMs: 5_000,
    maxResponseBytes: 1_048_576,
    ...options,
  });
}

/** Resolves once `condition` holds (sockets close a turn or two after they are told to). */
async function eventually(condition: () => boolean): Promise<void> {
  while (!condition()) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('OriginPools', (): void => {
  const servers: LocalServer[] = [];
  let pools: OriginPools;

  async function server(): Promise<LocalServer> {
    const started = await new LocalServer(600_000).start();
    started.routes.set('/inbox', (_req, res) => res.writeHead(202, { 'retry-after': '30' }).end('accepted'));
    servers.push(started);
    return started;
  }

  afterEach(async(): Promise<void> => {
    pools.close();
    await Promise.all(servers.splice(0).map(async(started): Promise<void> => started.stop()));
  });

  it('posts the body with the headers given and answers the status and Retry-After', async(): Promise<void> => {
    pools = poolsFor();
    const inbox = await server();
    const body = JSON.stringify({ type: 'Note', content: 'déjà vu' });
    await expect(pools.post(new URL(`${inbox.origin}/inbox?x=1`), { 'content-type': 'application/activity+json', signature: 's' }, body))
      .resolves.toEqual({ status: 202, retryAfter: '30' });
    expect(inbox.seen[0]).toMatchObject({ method: 'POST', url: '/inbox?x=1', headers: { signature: 's', 'content-length': String(Buffer.byteLength(body)) } });
    expect(inbox.seen[0].body.toString()).toBe(body);
  });

  it('keeps a connection for the next POST to the same origin', async(): Promise<void> => {
    pools = poolsFor();
    const inbox = await server();
    for (let count = 0; count < 3; count += 1) {
      await pools.post(new URL(`${inbox.origin}/inbox`), {}, '{}');
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(inbox.seen).toHaveLength(3);
    expect(inbox.connections).toBe(1);
    expect(pools.openSockets).toBe(1);
  });

  it('closes the connections of the origins used longest ago past maxSockets', async(): Promise<void> => {
    pools = poolsFor({ maxSockets: 2 });
    const inboxes = [ await server(), await server(), await server() ];
    for (const inbox of inboxes) {
      await pools.post(new URL(`${inbox.origin}/inbox`), {}, '{}');
    }
    await eventually((): boolean => pools.openSockets <= 2);
    // The first origin's connection was closed: its next POST opens a new one; the last's was kept.
    await pools.post(new URL(`${inboxes[0].origin}/inbox`), {}, '{}');
    await pools.post(new URL(`${inboxes[2].origin}/inbox`), {}, '{}');
    expect(inboxes.map((inbox): number => inbox.connections)).toEqual([ 2, 1, 1 ]);
  });

  it('answers the status of a large answer without reading all of it', async(): Promise<void> => {
    pools = poolsFor({ maxResponseBytes: 1_000 });
    const inbox = await server();
    inbox.routes.set('/inbox', (_req, res) => res.writeHead(500).end('x'.repeat(3_000_000)));
    await expect(pools.post(new URL(`${inbox.origin}/inbox`), {}, '{}')).resolves.toEqual({ status: 500 });
    // Its connection was closed, not kept for the next POST.
    inbox.routes.set('/inbox', (_req, res) => res.writeHead(202).end());
    await new Promise((resolve) => setImmediate(resolve));
    await expect(pools.post(new URL(`${inbox.origin}/inbox`), {}, '{}')).resolves.toEqual({ status: 202 });
    expect(inbox.connections).toBeGreaterThan(1);
  });

  it('gives up on a server that does not answer in timeoutMs', async(): Promise<void> => {
    pools = poolsFor({ timeoutMs: 200 });
    const inbox = await server();
    inbox.routes.set('/inbox', (): void => undefined);
    await expect(pools.post(new URL(`${inbox.origin}/inbox`), {}, '{}')).rejects.toMatchObject({ code: 'ETIMEDOUT', retryable: true });
  });

  it('refuses what the guard refuses, and sends nothing once closed', async(): Promise<void> => {
    pools = new OriginPools({ connect: guardedConnector(new SsrfGuard(false), { timeout: 2_000 }), connectionsPerOrigin: 1,
      idleMs: 1_000, maxSockets: 8, timeoutMs: 2_000, maxResponseBytes: 1_000 });
    const inbox = await server();
    await expect(pools.post(new URL(`${inbox.origin}/inbox`), {}, '{}')).rejects.toMatchObject({ code: 'SSRF', retryable: false });
    // By name: the guard's lookup refuses the loopback address it resolves to.
    await expect(pools.post(new URL(`http://localhost:${inbox.port}/inbox`), {}, '{}')).rejects.toMatchObject({ code: 'SSRF', retryable: false });
    pools.close();
    await expect(pools.post(new URL(`${inbox.origin}/inbox`), {}, '{}')).rejects.toMatchObject({ retryable: true });
    expect(inbox.seen).toHaveLength(0);
  });
});
