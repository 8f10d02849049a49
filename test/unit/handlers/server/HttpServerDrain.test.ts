import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { HttpServerDrain } from '../../../../src/handlers/server/HttpServerDrain';

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

/** A real HTTP server on loopback: `/slow` answers once released, `/hang` never, `/events` is an endless event stream, the rest at once. */
async function startServer(drain: HttpServerDrain): Promise<{ server: Server; port: number; received: Promise<void>; release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve): void => {
    release = resolve;
  });
  let received!: () => void;
  const receivedSlow = new Promise<void>((resolve): void => {
    received = resolve;
  });
  const server = createServer((req: IncomingMessage, res: ServerResponse): void => {
    if (req.url === '/slow') {
      received();
      void released.then((): void => {
        res.end('slow done');
      });
    } else if (req.url === '/hang') {
      received();
    } else if (req.url === '/events') {
      // Server-Sent Events: never ended by the handler.
      res.setHeader('content-type', 'text/event-stream');
      res.writeHead(200);
      res.write(': open\n\n');
      received();
    } else {
      res.end('fast');
    }
  });
  await drain.handle(server);
  await new Promise<void>((resolve): void => {
    server.listen(0, '127.0.0.1', resolve);
  });
  return { server, port: (server.address() as AddressInfo).port, received: receivedSlow, release };
}

function get(port: number, path: string, agent: Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject): void => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res): void => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string): void => {
        body += chunk;
      });
      res.on('end', (): void => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HttpServerDrain', (): void => {
  it('refuses new connections at once, answers the request in flight (Connection: close), then resolves', async(): Promise<void> => {
    const drain = new HttpServerDrain(60_000);
    const { port, received, release } = await startServer(drain);
    const inFlight = get(port, '/slow');
    await received;
    let drained = false;
    const finalized = drain.finalize().then((): void => {
      drained = true;
    });
    await expect(get(port, '/fast')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    // The request in flight holds the drain open until it is answered.
    expect(drained).toBe(false);
    release();
    expect(await inFlight).toEqual({ status: 200, connection: 'close', body: 'slow done' });
    await finalized;
    expect(drained).toBe(true);
  });

  it('is not held open by idle keep-alive connections', async(): Promise<void> => {
    const drain = new HttpServerDrain(600_000);
    const { port } = await startServer(drain);
    const agent = new Agent({ keepAlive: true });
    try {
      expect((await get(port, '/fast', agent)).body).toBe('fast');
      expect(Object.keys(agent.freeSockets)).toHaveLength(1);
      // With a drain timeout of ten minutes, only closing the idle connection lets this resolve in the test's time.
      await drain.finalize();
    } finally {
      agent.destroy();
    }
  });

  it('ends event streams at once: they would hold the drain open until its timeout', async(): Promise<void> => {
    const drain = new HttpServerDrain(600_000);
    const { port, received } = await startServer(drain);
    const stream = get(port, '/events');
    await received;
    // With a drain timeout of ten minutes, only ending the stream lets this resolve in the test's time.
    await drain.finalize();
    // Ended as a response ends (not cut): what was sent arrives whole.
    expect(await stream).toEqual({ status: 200, connection: 'close', body: ': open\n\n' });
  });

  it('lets CSS close the server again afterwards without an error, and finalize twice', async(): Promise<void> => {
    const drain = new HttpServerDrain();
    const { server } = await startServer(drain);
    await drain.finalize();
    await expect(promisify(server.close.bind(server))()).resolves.toBeUndefined();
    await expect(drain.finalize()).resolves.toBeUndefined();
  });

  it('cuts the connections of requests still running after its timeout', async(): Promise<void> => {
    const drain = new HttpServerDrain(50);
    const { port, received } = await startServer(drain);
    const hanging = get(port, '/hang');
    await received;
    await drain.finalize();
    await expect(hanging).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('does nothing when it never saw a server', async(): Promise<void> => {
    await expect(new HttpServerDrain().finalize()).resolves.toBeUndefined();
  });
});
