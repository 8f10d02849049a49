import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpHandlerInput } from '@solid/community-server';
import { guardStream, HttpHandler } from '@solid/community-server';
import { RdfBodyGuardHandler } from '../../../../src/handlers/ldp/RdfBodyGuardHandler';
import type { OperationInput } from '../../../../src/handlers/http/Operation';
import { Operation } from '../../../../src/handlers/http/Operation';

/** Stands for CSS's LDP handler: reads the body as a stream, as CSS does, and records what it got. */
class RecordingSource extends HttpHandler {
  public readonly seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  /** The operation each call came with, and the one its request leads to (Operation.of). */
  public readonly operations: { given?: Operation; found?: Operation }[] = [];

  public async handle({ request, response, operation }: HttpHandlerInput & Partial<OperationInput>): Promise<void> {
    this.operations.push({ given: operation, found: Operation.of(request) });
    const chunks: Buffer[] = [];
    for await (const chunk of request as AsyncIterable<Buffer>) {
      chunks.push(chunk);
    }
    this.seen.push({ method: request.method, url: request.url, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    response.writeHead(201).end();
  }
}

interface Reply {
  status: number;
  body: string;
}

describe('RdfBodyGuardHandler', (): void => {
  let server: http.Server;
  let port: number;
  let source: RecordingSource;

  beforeEach(async(): Promise<void> => {
    source = new RecordingSource();
    const guard = new RdfBodyGuardHandler(source, 1000, 8);
    server = http.createServer((request, response): void => {
      const guarded = guardStream(request);
      // As the pipeline hands it over: the request's operation, found from the request too.
      const operation = new Operation({ request: guarded, response, target: Operation.parseTarget('https://pod.example', request.url!)! })
        .bind(request);
      void guard.handle({ request: guarded, response, operation } as OperationInput);
    });
    await new Promise<void>((resolve): void => {
      server.listen(0, '127.0.0.1', resolve);
    });
    port = (server.address() as AddressInfo).port;
  });

  afterEach(async(): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((resolve): void => {
      server.close((): void => resolve());
    });
  });

  function send(method: string, body: string | undefined, headers: Record<string, string>, chunked = false): Promise<Reply> {
    return new Promise((resolve, reject): void => {
      const request = http.request({ host: '127.0.0.1', port, method, path: '/notes/', headers }, (response): void => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer): number => chunks.push(chunk));
        response.on('end', (): void => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      });
      request.on('error', reject);
      if (body !== undefined && chunked) {
        // Several writes without a Content-Length: node sends them chunked.
        for (let offset = 0; offset < body.length; offset += 100) {
          request.write(body.slice(offset, offset + 100));
        }
        request.end();
      } else {
        request.end(body);
      }
    });
  }

  it('refuses a chunked body over the limit with 413 and never hands it on', async(): Promise<void> => {
    const reply = await send('POST', `<a:s> <a:p> "${'x'.repeat(2000)}" .`, { 'content-type': 'text/turtle' }, true);
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body)).toMatchObject({ error: 'payload_too_large' });
    expect(source.seen).toEqual([]);
  });

  it('refuses a declared length over the limit with 413', async(): Promise<void> => {
    const reply = await send('PUT', `<a:s> <a:p> "${'x'.repeat(2000)}" .`, { 'content-type': 'text/turtle' });
    expect(reply.status).toBe(413);
    expect(source.seen).toEqual([]);
  });

  it.each([
    [ 'text/turtle', `<a:s> <a:p> ${'('.repeat(9)}${')'.repeat(9)} .` ],
    [ 'text/turtle', `<a:s> <a:p> ${'[ <a:p> '.repeat(9)}1${' ]'.repeat(9)} .` ],
    [ 'application/trig', `<a:g> { <a:s> <a:p> ${'('.repeat(9)}${')'.repeat(9)} }` ],
    [ 'application/sparql-update', `INSERT DATA { <a:s> <a:p> ${'('.repeat(9)}${')'.repeat(9)} }` ],
  ])('refuses %s nested deeper than the limit with 400', async(type, body): Promise<void> => {
    const reply = await send('POST', body, { 'content-type': type }, true);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ error: 'too_deeply_nested' });
    expect(source.seen).toEqual([]);
  });

  it('hands the checked body on unchanged, brackets in strings, IRIs and comments not counted', async(): Promise<void> => {
    const body = `# ((((((((((\n<a:s> <a:p> "((((((((((\\"((((" ; <a:q> """[[[[[[[[[[""" ; <a:r> <a:x((((((((((> ; <a:t> ( 1 ( 2 ) ) .`;
    const reply = await send('POST', body, { 'content-type': 'text/turtle', slug: 'x' }, true);
    expect(reply.status).toBe(201);
    expect(source.seen).toHaveLength(1);
    expect(source.seen[0]).toMatchObject({ method: 'POST', url: '/notes/', body });
    expect(source.seen[0].headers).toMatchObject({ 'content-type': 'text/turtle', slug: 'x', 'content-length': String(Buffer.byteLength(body)) });
    expect(source.seen[0].headers['transfer-encoding']).toBeUndefined();
  });

  it('checks only the size of other bodies, and passes bodiless requests straight on', async(): Promise<void> => {
    const deepJson = `${'['.repeat(50)}${']'.repeat(50)}`;
    expect((await send('PUT', deepJson, { 'content-type': 'application/ld+json' })).status).toBe(201);
    expect((await send('GET', undefined, {})).status).toBe(201);
    expect(source.seen.map((seen): string => seen.body)).toEqual([ deepJson, '' ]);
  });

  it('hands the pipeline\'s operation on with the replayed request, which leads to it as well', async(): Promise<void> => {
    expect((await send('PUT', '<a> <b> <c> .', { 'content-type': 'text/turtle' })).status).toBe(201);
    expect((await send('GET', undefined, {})).status).toBe(201);
    expect(source.operations).toHaveLength(2);
    for (const { given, found } of source.operations) {
      expect(given).toBeInstanceOf(Operation);
      expect(found).toBe(given);
    }
  });
});
