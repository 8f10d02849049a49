import * as http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { mediaTypeOf, negotiate, readBody, readJsonBody, sendError, sendStream } from '../../../../src/handlers/http/HttpUtil';
import { StoreUnavailableHttpError } from '../../../../src/storage/StoreUnavailableHttpError';
import { FedpodHttpError, serviceUnavailable } from '../../../../src/util/HttpErrors';
import { rejection } from '../../../support/rejection';

const JSON_LD = 'application/ld+json';
const TURTLE = 'text/turtle';
const N_TRIPLES = 'application/n-triples';
const N3 = 'text/n3';
const OFFERED = [ JSON_LD, TURTLE, N_TRIPLES ] as const;

/** A request whose body is the given chunks; headers as given. */
function request(chunks: (Buffer | string)[], headers: Record<string, string> = {}): IncomingMessage & Readable {
  const stream = Readable.from(chunks.map((chunk): Buffer => Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)));
  return Object.assign(stream, { headers }) as unknown as IncomingMessage & Readable;
}

/** A request body that never ends: `chunk` is produced forever; counts how many bytes were pulled. */
function endlessRequest(chunk: Buffer, headers: Record<string, string> = {}): { request: IncomingMessage; pulled: () => number } {
  let pulled = 0;
  const stream = new Readable({
    read(): void {
      pulled += chunk.length;
      this.push(chunk);
    },
  });
  return { request: Object.assign(stream, { headers }) as unknown as IncomingMessage, pulled: (): number => pulled };
}

/** What a client gets when a handler answers `error` with sendError. */
async function answerFor(error: unknown): Promise<{ status: number; retryAfter?: string; body: Record<string, unknown> }> {
  const server = http.createServer((_request, response): void => sendError(response, error));
  await new Promise<void>((resolve): void => {
    server.listen(0, '127.0.0.1', resolve);
  });
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`, { headers: { connection: 'close' } });
    return { status: response.status, retryAfter: response.headers.get('retry-after') ?? undefined,
      body: await response.json() as Record<string, unknown> };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve): void => {
      server.close((): void => resolve());
    });
  }
}

describe('HttpUtil', (): void => {
  describe('mediaTypeOf', (): void => {
    it.each([
      [ 'application/ld+json', JSON_LD ],
      [ 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"', JSON_LD ],
      [ 'Text/Turtle ; charset=UTF-8', TURTLE ],
      [ '  APPLICATION/JSON  ', 'application/json' ],
      [ 'application/json;charset=utf-8;foo=bar', 'application/json' ],
    ])('reads %j as %j', (header, expected): void => {
      expect(mediaTypeOf(header)).toBe(expected);
    });

    it('gives an empty string for a missing or empty header', (): void => {
      expect(mediaTypeOf(undefined)).toBe('');
      expect(mediaTypeOf('')).toBe('');
      expect(mediaTypeOf(';charset=utf-8')).toBe('');
    });
  });

  describe('negotiate', (): void => {
    it('takes a missing or blank Accept header as */*: the first offer, as a wildcard match', (): void => {
      for (const accept of [ undefined, '', '   ' ]) {
        expect(negotiate(accept, OFFERED)).toEqual({ type: JSON_LD, wildcard: true, params: '' });
        expect(negotiate(accept, [ TURTLE, JSON_LD ])?.type).toBe(TURTLE);
      }
    });

    it('picks an exactly named type and reports it is not a wildcard match', (): void => {
      expect(negotiate(TURTLE, OFFERED)).toEqual({ type: TURTLE, wildcard: false, params: '' });
      expect(negotiate(N_TRIPLES, OFFERED)).toEqual({ type: N_TRIPLES, wildcard: false, params: '' });
    });

    it('prefers the highest q-value', (): void => {
      expect(negotiate('text/turtle;q=0.5, application/ld+json;q=0.9', OFFERED)?.type).toBe(JSON_LD);
      expect(negotiate('application/ld+json;q=0.4, text/turtle;q=0.41', OFFERED)?.type).toBe(TURTLE);
      expect(negotiate('application/ld+json;q=0.5, application/n-triples', OFFERED)?.type).toBe(N_TRIPLES);
      expect(negotiate('text/turtle;q=.8, application/n-triples;q=0.7', OFFERED)?.type).toBe(TURTLE);
      expect(negotiate('text/turtle;q=1.0, application/ld+json;q=0.999', OFFERED)?.type).toBe(TURTLE);
    });

    it('prefers a higher q on a wildcard over a lower q on a named type', (): void => {
      expect(negotiate('text/turtle;q=0.2, */*;q=0.8', OFFERED)).toEqual({ type: JSON_LD, wildcard: true, params: '' });
      expect(negotiate('text/turtle;q=0.2, */*;q=0.8', [ TURTLE, JSON_LD ])).toEqual({ type: JSON_LD, wildcard: true, params: '' });
    });

    it('matches a type/* wildcard against the major type only', (): void => {
      expect(negotiate('text/*', OFFERED)).toEqual({ type: TURTLE, wildcard: true, params: '' });
      expect(negotiate('application/*', [ TURTLE, N_TRIPLES ])).toEqual({ type: N_TRIPLES, wildcard: true, params: '' });
      expect(negotiate('image/*', OFFERED)).toBeUndefined();
    });

    it('lets the most specific matching entry set the q-value of a type', (): void => {
      // text/turtle is refused by its own entry even though text/* and */* accept it.
      expect(negotiate('*/*, text/*, text/turtle;q=0', [ TURTLE, N3 ])?.type).toBe(N3);
      expect(negotiate('text/turtle;q=0, text/*;q=1, */*', [ TURTLE ])).toBeUndefined();
      // The order of entries in the header does not matter.
      expect(negotiate('text/turtle;q=0.1, text/*;q=0.9', [ TURTLE, N3 ])?.type).toBe(N3);
      expect(negotiate('text/*;q=0.9, text/turtle;q=0.1', [ TURTLE, N3 ])?.type).toBe(N3);
      expect(negotiate('*/*;q=0.1, text/turtle', [ JSON_LD, TURTLE ])).toEqual({ type: TURTLE, wildcard: false, params: '' });
    });

    it('breaks q ties by specificity, then by the order of the offers', (): void => {
      expect(negotiate('*/*, text/turtle', OFFERED)).toEqual({ type: TURTLE, wildcard: false, params: '' });
      expect(negotiate('text/*, application/ld+json', [ TURTLE, JSON_LD ])?.type).toBe(JSON_LD);
      expect(negotiate('text/turtle, application/ld+json', [ JSON_LD, TURTLE ])?.type).toBe(JSON_LD);
      expect(negotiate('text/turtle, application/ld+json', [ TURTLE, JSON_LD ])?.type).toBe(TURTLE);
      expect(negotiate('*/*', [ N_TRIPLES, TURTLE ])?.type).toBe(N_TRIPLES);
    });

    it('never picks a type with q=0, whatever matched it', (): void => {
      expect(negotiate('text/turtle;q=0', [ TURTLE ])).toBeUndefined();
      expect(negotiate('text/turtle;q=0.0', [ TURTLE ])).toBeUndefined();
      expect(negotiate('*/*;q=0', OFFERED)).toBeUndefined();
      expect(negotiate('text/*;q=0', [ TURTLE, N3 ])).toBeUndefined();
      expect(negotiate('application/ld+json;q=0, */*', OFFERED)?.type).toBe(TURTLE);
      expect(negotiate('application/ld+json;q=0, application/n-triples;q=0, */*;q=0.1', OFFERED)?.type).toBe(TURTLE);
    });

    it('answers undefined when nothing offered is acceptable', (): void => {
      expect(negotiate('image/png', OFFERED)).toBeUndefined();
      expect(negotiate('text/html, application/xhtml+xml', OFFERED)).toBeUndefined();
      expect(negotiate('text/turtle', [])).toBeUndefined();
    });

    it('reads media types and parameter names case-insensitively and ignores whitespace and empty entries', (): void => {
      expect(negotiate('TEXT/TURTLE', OFFERED)?.type).toBe(TURTLE);
      expect(negotiate('Text/Turtle;Q=0, */*', [ TURTLE, JSON_LD ])?.type).toBe(JSON_LD);
      expect(negotiate('  text/turtle ; q=0.5 ,  application/ld+json ;q=0.9 ', OFFERED)?.type).toBe(JSON_LD);
      expect(negotiate(',, text/turtle ,', OFFERED)?.type).toBe(TURTLE);
    });

    it('returns the parameters of the matching entry, without the q-value', (): void => {
      const profile = 'https://www.w3.org/ns/activitystreams';
      expect(negotiate(`application/ld+json; profile="${profile}"`, OFFERED))
        .toEqual({ type: JSON_LD, wildcard: false, params: `profile=${profile}` });
      expect(negotiate(`text/turtle;q=0.5, application/ld+json;q=0.9;profile="${profile}"`, OFFERED))
        .toEqual({ type: JSON_LD, wildcard: false, params: `profile=${profile}` });
      expect(negotiate(`application/ld+json;profile="${profile}";q=0.1, text/turtle`, OFFERED))
        .toEqual({ type: TURTLE, wildcard: false, params: '' });
    });

    it('handles the Accept headers of common fediverse and Solid clients', (): void => {
      const mastodon = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
      expect(negotiate(mastodon, OFFERED)?.type).toBe(JSON_LD);
      const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
      expect(negotiate(browser, OFFERED)).toEqual({ type: JSON_LD, wildcard: true, params: '' });
      const solid = 'text/turtle;q=1.0, application/ld+json;q=0.5, */*;q=0.1';
      expect(negotiate(solid, OFFERED)?.type).toBe(TURTLE);
    });
  });

  describe('readJsonBody', (): void => {
    it('parses a JSON body that arrives in pieces', async(): Promise<void> => {
      const body = request([ '{"a":', '1}' ], { 'content-type': 'application/json; charset=utf-8' });
      expect(await readJsonBody(body, 100)).toEqual({ a: 1 });
    });

    it('refuses bad JSON with 400 and a body over the limit with 413', async(): Promise<void> => {
      await expect(readJsonBody(request([ '{"a":' ], { 'content-type': 'application/json' }), 100))
        .rejects.toMatchObject({ statusCode: 400, errorCode: 'invalid_json' });
      await expect(readJsonBody(request([ `"${'x'.repeat(200)}"` ], { 'content-type': 'application/json' }), 100))
        .rejects.toMatchObject({ statusCode: 413 });
    });
  });

  describe('readBody', (): void => {
    it('returns the whole body, across chunks and split multi-byte characters', async(): Promise<void> => {
      const text = 'héllo wörld 😀 — done';
      const bytes = Buffer.from(text, 'utf8');
      const chunks = [ bytes.subarray(0, 2), bytes.subarray(2, 15), bytes.subarray(15, 16), bytes.subarray(16) ];
      const body = await readBody(request(chunks), 1024);
      expect(body.equals(bytes)).toBe(true);
      expect(body.toString('utf8')).toBe(text);
    });

    it('returns an empty buffer for an empty body', async(): Promise<void> => {
      expect((await readBody(request([]), 10)).length).toBe(0);
    });

    it('accepts a body of exactly the limit', async(): Promise<void> => {
      const body = await readBody(request([ 'x'.repeat(6), 'y'.repeat(4) ], { 'content-length': '10' }), 10);
      expect(body.toString()).toBe('xxxxxxyyyy');
    });

    it('answers 413 from a content-length above the limit, before reading any of the body', async(): Promise<void> => {
      // A body that never arrives: only the header can decide, and reading must not be awaited.
      const silent = Object.assign(new Readable({
        read(): void {
          // Never pushes anything.
        },
      }), { headers: { 'content-length': '11' }}) as unknown as IncomingMessage & Readable;
      const timeout = new Promise<string>((resolve): void => {
        setTimeout((): void => resolve('still waiting for the body'), 2_000).unref();
      });
      const error = await Promise.race([ rejection(readBody(silent, 10)), timeout ]);
      expect(error).toBeInstanceOf(FedpodHttpError);
      expect(error).toMatchObject({ statusCode: 413, errorCode: 'payload_too_large' });
      silent.destroy();
    });

    it('answers 413 when the streamed body passes the limit without a content-length', async(): Promise<void> => {
      const error = await rejection(readBody(request([ 'x'.repeat(6), 'y'.repeat(5) ]), 10));
      expect(error).toBeInstanceOf(FedpodHttpError);
      expect(error).toMatchObject({ statusCode: 413, errorCode: 'payload_too_large' });
    });

    it('answers 413 when the body is longer than its content-length claims', async(): Promise<void> => {
      const error = await rejection(readBody(request([ 'x'.repeat(8), 'y'.repeat(8) ], { 'content-length': '5' }), 10));
      expect(error).toMatchObject({ statusCode: 413, errorCode: 'payload_too_large' });
    });

    it('ignores a content-length that is not a number and checks the streamed size', async(): Promise<void> => {
      expect((await readBody(request([ 'abc' ], { 'content-length': 'lots' }), 10)).toString()).toBe('abc');
      const error = await rejection(readBody(request([ 'x'.repeat(11) ], { 'content-length': 'lots' }), 10));
      expect(error).toMatchObject({ statusCode: 413 });
    });

    it('answers 413 past the limit, drops what follows so the client can read it, and closes an endless body', async(): Promise<void> => {
      const { request: endless, pulled } = endlessRequest(Buffer.alloc(64 * 1024));
      const closed = new Promise((resolve) => endless.once('close', resolve));
      const error = await rejection(readBody(endless, 1024 * 1024));
      expect(error).toMatchObject({ statusCode: 413 });
      await closed;
      // Read and dropped up to the 64 MiB cap (plus stream buffering), then closed: never everything.
      expect(pulled()).toBeGreaterThan(1024 * 1024);
      expect(pulled()).toBeLessThan(68 * 1024 * 1024);
    });

    it('passes on stream errors', async(): Promise<void> => {
      const failing = new Readable({
        read(): void {
          this.destroy(new Error('connection reset'));
        },
      });
      const error = await rejection(readBody(Object.assign(failing, { headers: {}}) as unknown as IncomingMessage, 10));
      expect((error as Error).message).toBe('connection reset');
      expect(error).not.toBeInstanceOf(FedpodHttpError);
    });
  });

  describe('sendError for dependencies that are away', (): void => {
    it('answers the store being unreachable with 503 store_unavailable and Retry-After, not a 500', async(): Promise<void> => {
      const answer = await answerFor(new StoreUnavailableHttpError('The triple store is not reachable (ECONNREFUSED).'));
      expect(answer).toEqual({ status: 503, retryAfter: '5',
        body: { error: 'store_unavailable', message: 'The triple store is not reachable (ECONNREFUSED).' } });
    });

    it('answers the queue being unreachable with 503 queue_unavailable', async(): Promise<void> => {
      const answer = await answerFor(serviceUnavailable('The job queue is not reachable.', 'queue_unavailable'));
      expect(answer).toEqual({ status: 503, retryAfter: '5', body: { error: 'queue_unavailable', message: 'The job queue is not reachable.' } });
    });

    it('still hides unexpected errors behind a plain 500', async(): Promise<void> => {
      const answer = await answerFor(new Error('secret detail'));
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ error: 'internal_error', message: 'The server could not complete the request.' });
    });
  });
});

describe('sendStream', (): void => {
  /** Bytes without end, counting reads; `destroyed` once closed. */
  function endless(): Readable & { reads: number } {
    const stream = new Readable({ read(): void {
      stream.reads += 1;
      this.push(Buffer.alloc(64 * 1024, 1));
    } }) as Readable & { reads: number };
    stream.reads = 0;
    return stream;
  }

  async function serving(body: Readable, onError: (error: Error) => void = (): void => undefined): Promise<{ url: string; close: () => Promise<void> }> {
    const server = http.createServer((req, res): void => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      sendStream(res, body, onError);
    });
    await new Promise<void>((resolve): void => {
      server.listen(0, '127.0.0.1', resolve);
    });
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/`, close: async(): Promise<void> => new Promise((resolve): void => {
      server.closeAllConnections();
      server.close((): void => resolve());
    }) };
  }

  it('closes the file when the client leaves mid-way', async(): Promise<void> => {
    const body = endless();
    const server = await serving(body);
    try {
      await new Promise<void>((resolve, reject): void => {
        const req = http.get(server.url, (res): void => {
          res.once('data', (): void => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (error: Error & { code?: string }): void => {
          if (error.code !== 'ECONNRESET') {
            reject(error);
          }
        });
      });
      // Closed soon after the client left (a file left open would stay so: the test then fails here).
      await new Promise<void>((resolve): void => {
        const timer = setTimeout(resolve, 5_000);
        body.once('close', (): void => {
          clearTimeout(timer);
          resolve();
        });
      });
      expect(body.destroyed).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('ends the response on a read error, and says so', async(): Promise<void> => {
    const errors: string[] = [];
    const body = new Readable({ read(): void {
      this.destroy(new Error('disk gone'));
    } });
    const server = await serving(body, (error): void => {
      errors.push(error.message);
    });
    try {
      const outcome = await new Promise<string>((resolve): void => {
        http.get(server.url, (res): void => {
          res.on('data', (): void => undefined);
          res.on('end', (): void => resolve('end'));
          res.on('error', (): void => resolve('aborted'));
          res.on('aborted', (): void => resolve('aborted'));
        }).on('error', (): void => resolve('aborted'));
      });
      expect(outcome).toBe('aborted');
      expect(errors).toEqual([ 'disk gone' ]);
    } finally {
      await server.close();
    }
  });
});
