import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FedpodHttpError } from '../../../../src/util/HttpErrors';
import { RequestBodyReader } from '../../../../src/storage/embedded/RequestBodyReader';

/** A local server answering with what the reader made of each request body: its text, or the error's status. */
async function readingServer(reader: RequestBodyReader): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response): void => {
    reader.readText(request).then((text): void => {
      response.end(`read ${text.length} ${text}`);
    }, (error: unknown): void => {
      const status = error instanceof FedpodHttpError ? error.statusCode : 500;
      response.writeHead(status, { ...error instanceof FedpodHttpError ? error.headers : {}}).end(String(error instanceof Error ? error.message : String(error)));
    });
  });
  await new Promise<void>((resolve): void => {
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: async(): Promise<void> => new Promise<void>((resolve): void => {
      server.closeAllConnections();
      server.close((): void => resolve());
    }),
  };
}

/** POSTs `chunks` one after another (chunked, no content-length), giving the status and body of the answer. */
async function post(url: string, chunks: string[], headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject): void => {
    const request = http.request(url, { method: 'POST', headers }, (response): void => {
      let body = '';
      response.on('data', (chunk: Buffer): void => {
        body += chunk.toString('utf8');
      });
      response.on('end', (): void => resolve({ status: response.statusCode!, body, headers: response.headers }));
    });
    request.on('error', reject);
    for (const chunk of chunks) {
      request.write(chunk);
    }
    request.end();
  });
}

describe('RequestBodyReader', (): void => {
  it('reads a body in one piece or many, up to the limit', async(): Promise<void> => {
    const server = await readingServer(new RequestBodyReader(10));
    try {
      expect((await post(server.url, [ 'héllo' ])).body).toBe('read 5 héllo');
      expect((await post(server.url, [ 'ab', 'cd', 'ef' ])).body).toBe('read 6 abcdef');
      expect((await post(server.url, [ '0123456789' ])).body).toBe('read 10 0123456789');
      expect((await post(server.url, [])).body).toBe('read 0 ');
    } finally {
      await server.close();
    }
  });

  it('refuses a body declared larger than the limit with a 413 that closes the connection', async(): Promise<void> => {
    const server = await readingServer(new RequestBodyReader(10));
    try {
      const answer = await post(server.url, [ 'x'.repeat(11) ], { 'content-length': '11' });
      expect(answer.status).toBe(413);
      expect(answer.body).toBe('Request body larger than 10 bytes');
      expect(answer.headers.connection).toBe('close');
    } finally {
      await server.close();
    }
  });

  it('refuses a streamed body once it grows past the limit', async(): Promise<void> => {
    const server = await readingServer(new RequestBodyReader(10));
    try {
      const answer = await post(server.url, [ '123456', '7890', 'X' ]);
      expect(answer.status).toBe(413);
    } finally {
      await server.close();
    }
  });
});
