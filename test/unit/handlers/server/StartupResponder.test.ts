import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StartupResponder } from '../../../../src/handlers/server/StartupResponder';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject): void => {
    const outgoing = request({ host: '127.0.0.1', port, path, method, agent: false }, (response): void => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string): void => {
        body += chunk;
      });
      response.on('end', (): void => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    outgoing.on('error', reject);
    outgoing.end(method === 'POST' ? '{"a":1}' : undefined);
  });
}

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve): void => {
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve): void => {
    probe.close((): void => resolve());
  });
  return port;
}

describe('StartupResponder', (): void => {
  let responder: StartupResponder;
  let port: number;

  beforeEach(async(): Promise<void> => {
    port = await freePort();
    responder = new StartupResponder('store loading', 2);
    await responder.listen(port, '127.0.0.1');
  });

  afterEach(async(): Promise<void> => {
    await responder.close();
  });

  it.each([[ '/readyz', 'GET' ], [ '/healthz', 'GET' ], [ '/notes/', 'POST' ]])('answers %s (%s) 503 with the phase and Retry-After',
    async(path, method): Promise<void> => {
      const answer = await get(port, path, method);
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('2');
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body)).toEqual({ error: 'not_ready', message: 'store loading' });
    });

  it('says the current phase', async(): Promise<void> => {
    responder.setPhase('initialising');
    expect(JSON.parse((await get(port, '/readyz')).body)).toEqual({ error: 'not_ready', message: 'initialising' });
  });

  it('frees the port on close, so the server can bind it', async(): Promise<void> => {
    await responder.close();
    const server = createServer((incoming, response): void => {
      response.end('served');
    });
    await new Promise<void>((resolve): void => {
      server.listen(port, '127.0.0.1', resolve);
    });
    try {
      expect((await get(port, '/readyz')).body).toBe('served');
    } finally {
      await new Promise<void>((resolve): void => {
        server.close((): void => resolve());
      });
    }
    // A second close is harmless.
    await responder.close();
  });

  it('rejects when the port is taken', async(): Promise<void> => {
    await expect(new StartupResponder('starting').listen(port, '127.0.0.1')).rejects.toThrow(/EADDRINUSE/u);
  });
});
