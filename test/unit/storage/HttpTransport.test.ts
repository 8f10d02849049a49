import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HttpTransport } from '../../../src/storage/HttpTransport';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local server that records each request and answers from `answer`; 'hang' never answers. */
async function localServer(answer: (request: Received) => { status: number; body: string } | 'hang'):
Promise<{ url: string; received: Received[]; connections: () => number; close: () => Promise<void> }> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = http.createServer((request, response): void => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer): void => {
      chunks.push(chunk);
    });
    request.on('end', (): void => {
      const entry = { method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      const reply = answer(entry);
      if (reply !== 'hang') {
        response.writeHead(reply.status, { 'content-type': 'text/plain', 'x-store': 'local' }).end(reply.body);
      }
    });
  });
  server.on('connection', (socket): void => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', (): boolean => sockets.delete(socket));
  });
  await new Promise<void>((resolve): void => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    connections: (): number => connections,
    close: async(): Promise<void> => {
      for (const socket of sockets) {
        socket.destroy();
      }
      await new Promise<void>((resolve): void => {
        server.close((): void => resolve());
      });
    },
  };
}

describe('HttpTransport', (): void => {
  let transport: HttpTransport;

  beforeEach((): void => {
    transport = new HttpTransport(4);
  });

  afterEach((): void => {
    transport.close();
  });

  it('sends a request with its body and length, and gives status, headers and body back', async(): Promise<void> => {
    const server = await localServer((request): { status: number; body: string } => ({ status: 201, body: `got ${request.body}` }));
    try {
      const response = await transport.send({ method: 'POST', url: `${server.url}/ds/update?x=1`,
        headers: { 'content-type': 'application/sparql-update' }, body: 'INSERT DATA { <a:ü> <a:b> <a:c> }' });
      expect(response).toMatchObject({ status: 201, body: 'got INSERT DATA { <a:ü> <a:b> <a:c> }' });
      expect(response.headers['x-store']).toBe('local');
      const [ received ] = server.received;
      expect(received).toMatchObject({ method: 'POST', url: '/ds/update?x=1' });
      expect(received.headers['content-type']).toBe('application/sparql-update');
      expect(received.headers['content-length']).toBe(String(Buffer.byteLength('INSERT DATA { <a:ü> <a:b> <a:c> }')));
    } finally {
      await server.close();
    }
  });

  it('turns credentials in the URL into Basic authentication, and sends none otherwise', async(): Promise<void> => {
    const server = await localServer((): { status: number; body: string } => ({ status: 200, body: '' }));
    try {
      await transport.send({ method: 'GET', url: server.url.replace('http://', 'http://ad%40min:p%3Ass@') });
      await transport.send({ method: 'GET', url: server.url });
      expect(server.received[0].headers.authorization).toBe(`Basic ${Buffer.from('ad@min:p:ss').toString('base64')}`);
      expect(server.received[1].headers.authorization).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('reuses its connection for requests one after another', async(): Promise<void> => {
    const server = await localServer((): { status: number; body: string } => ({ status: 200, body: 'ok' }));
    try {
      for (let index = 0; index < 3; index += 1) {
        await transport.send({ method: 'GET', url: server.url });
      }
      expect(server.connections()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('fails with ETIMEDOUT when the store does not answer in time', async(): Promise<void> => {
    const server = await localServer((): 'hang' => 'hang');
    try {
      await expect(transport.send({ method: 'GET', url: `${server.url}/ds/query`, timeoutMs: 50 }))
        .rejects.toMatchObject({ code: 'ETIMEDOUT', message: `Request to ${server.url}/ds/query timed out` });
    } finally {
      await server.close();
    }
  });

  it('fails with the connection\'s error when nothing listens', async(): Promise<void> => {
    const server = await localServer((): { status: number; body: string } => ({ status: 200, body: '' }));
    const { url } = server;
    await server.close();
    await expect(transport.send({ method: 'GET', url })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
