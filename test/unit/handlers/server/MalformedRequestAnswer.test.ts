import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { answerMalformedRequests } from '../../../../src/handlers/server/MalformedRequestAnswer';

/** Sends `bytes` on a new connection and reads until the server closes it. */
async function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject): void => {
    const socket = connect(port, '127.0.0.1', (): void => {
      socket.write(bytes);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer): void => {
      chunks.push(chunk);
    });
    socket.on('end', (): void => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}

function parse(answer: string): { status: number; type: string | undefined; body: unknown } {
  const [ head, body ] = answer.split('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3}) /u.exec(head)![1]),
    type: /content-type: ([^\r]+)/iu.exec(head)?.[1],
    body: JSON.parse(body) as unknown,
  };
}

describe('answerMalformedRequests', (): void => {
  let server: Server;
  let port: number;

  beforeAll(async(): Promise<void> => {
    server = createServer({ maxHeaderSize: 1024 }, (request, response): void => {
      response.end('handled');
    });
    answerMalformedRequests(server);
    await new Promise<void>((resolve): void => {
      server.listen(0, '127.0.0.1', resolve);
    });
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async(): Promise<void> => {
    await new Promise<void>((resolve): void => {
      server.close((): void => resolve());
    });
  });

  it('answers an unknown method 400 in the JSON error shape', async(): Promise<void> => {
    expect(parse(await raw(port, 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n'))).toEqual({ status: 400, type: 'application/json; charset=utf-8',
      body: { error: 'unknown_method', message: expect.stringContaining('method') }});
  });

  it('answers a malformed request 400 and header fields over the limit 431, as JSON', async(): Promise<void> => {
    expect(parse(await raw(port, 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'))).toEqual({
      status: 400, type: 'application/json; charset=utf-8', body: { error: 'malformed_request', message: expect.stringMatching(/^The request is not valid HTTP\/1\.1: .+/u) }});
    expect(parse(await raw(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`))).toMatchObject({
      status: 431, body: { error: 'header_fields_too_large' }});
  });

  it('leaves valid requests to the server', async(): Promise<void> => {
    expect(await raw(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*handled$/u);
  });
});
