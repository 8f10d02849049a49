import http from 'node:http';
import type { Socket } from 'node:net';
import { IdleSocketCap } from '../../../../../src/plugins/activitypub/fetch/IdleSocketCap';
import { LocalServer } from './localServer';

/** GETs `/` of `server` through `agent`, telling `cap` which socket the request took. */
async function get(agent: http.Agent, cap: IdleSocketCap, server: LocalServer): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: server.port, path: '/', agent }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('socket', (socket: Socket) => cap.taken(socket));
    req.on('error', reject);
  });
  // The agent frees the socket after the response's end.
  await new Promise((resolve) => setImmediate(resolve));
}

/** Open idle sockets by port (a destroyed socket leaves the agent's list on its 'close', a tick later). */
function idleByHost(agent: http.Agent): Record<string, number> {
  return Object.fromEntries(Object.entries(agent.freeSockets).map(([ name, sockets ]) =>
    [ name.split(':')[1], (sockets ?? []).filter((socket) => !socket.destroyed).length ]));
}

describe('IdleSocketCap', () => {
  let servers: LocalServer[];
  let agent: http.Agent;

  beforeEach(async () => {
    // The servers keep idle connections far longer than a test runs, however slow the machine.
    servers = await Promise.all([ 0, 1, 2 ].map(async () => new LocalServer(600_000).start()));
    for (const server of servers) {
      server.routes.set('/', (_req, res) => res.end('ok'));
    }
    agent = new http.Agent({ keepAlive: true, timeout: 30_000 });
  });

  afterEach(async () => {
    agent.destroy();
    await Promise.all(servers.map(async (server) => server.stop()));
  });

  it('closes the connection idle longest once more than the bound are idle across hosts', async () => {
    const cap = new IdleSocketCap(2);
    cap.watch(agent);
    for (const server of servers) {
      await get(agent, cap, server);
    }
    expect(cap.size).toBe(2);
    const idle = idleByHost(agent);
    expect(idle[String(servers[0].port)] ?? 0).toBe(0);
    expect(idle[String(servers[1].port)]).toBe(1);
    expect(idle[String(servers[2].port)]).toBe(1);

    // A connection used again is the most recent: the next one over the bound closes the other.
    await get(agent, cap, servers[1]);
    await get(agent, cap, servers[0]);
    expect(servers[1].connections).toBe(1);
    const after = idleByHost(agent);
    expect(after[String(servers[2].port)] ?? 0).toBe(0);
    expect(after[String(servers[1].port)]).toBe(1);
    expect(after[String(servers[0].port)]).toBe(1);
  });

  it('forgets sockets that closed and does not count busy ones', async () => {
    const cap = new IdleSocketCap(5);
    cap.watch(agent);
    await get(agent, cap, servers[0]);
    await get(agent, cap, servers[1]);
    expect(cap.size).toBe(2);
    await servers[0].stop();
    // The client learns of the close when its socket's 'close' event comes.
    for (let waited = 0; cap.size > 1 && waited < 200; waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(cap.size).toBe(1);

    // While the request is served, its (reused) socket is busy.
    const sizeWhileBusy = new Promise<number>((resolve) => {
      servers[1].routes.set('/', (_req, res) => {
        resolve(cap.size);
        res.end('ok');
      });
    });
    await get(agent, cap, servers[1]);
    expect(await sizeWhileBusy).toBe(0);
    expect(servers[1].connections).toBe(1);
    expect(cap.size).toBe(1);
  });
});
