import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import type { HttpHandler, HttpHandlerInput, HttpRequest } from '@solid/community-server';
import { guardStream } from '@solid/community-server';
import { badRequest } from '../../util/HttpErrors';
import { mediaTypeOf, readBody } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { Operation } from '../http/Operation';
import { NESTED_SYNTAXES, nestingDepthOver } from './RdfNestingDepth';

const BODY_METHODS = new Set([ 'POST', 'PUT', 'PATCH' ]);


/**
 * Stands in front of CSS's LDP handler for writes: reads the body itself, counting bytes as they
 * arrive (CSS reads a chunked body without any limit), and refuses with a JSON error before
 * anything is parsed or locked:
 * - a body over the limit → 413 (with or without a Content-Length);
 * - Turtle, N-Triples, N-Quads, TriG, N3 or a SPARQL update nested deeper than `maxNestingDepth`
 *   → 400 (a deeply nested body kept CSS's parser busy past its lock time: a 500 and a busy core).
 * The checked body is then handed to CSS as the request body.
 */
export class RdfBodyGuardHandler extends JsonHttpHandler {
  /**
   * @param source - CSS's LDP handler.
   * @param maxBodyBytes - Largest accepted body.
   * @param maxNestingDepth - Deepest accepted bracket nesting of the RDF syntaxes above.
   */
  public constructor(
    private readonly source: HttpHandler,
    private readonly maxBodyBytes = 1_048_576,
    private readonly maxNestingDepth = 128,
  ) {
    super();
  }

  public override async canHandle(input: HttpHandlerInput): Promise<void> {
    await this.source.canHandle(input);
  }

  protected async serve(input: HttpHandlerInput): Promise<void> {
    const { request } = input;
    const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
    if (!BODY_METHODS.has(request.method ?? '') || !hasBody) {
      await this.source.handle(input);
      return;
    }
    const body = await readBody(request, this.maxBodyBytes);
    const type = mediaTypeOf(request.headers['content-type']);
    if (NESTED_SYNTAXES.has(type) && nestingDepthOver(body.toString('utf8'), this.maxNestingDepth)) {
      throw badRequest(`The body is nested more than ${this.maxNestingDepth} levels deep.`, 'too_deeply_nested');
    }
    // The rest of the input (the pipeline's operation) goes on unchanged.
    await this.source.handle({ ...input, request: this.replay(request, body) });
  }

  /** A request CSS can read as usual: the same head, the already read body. */
  private replay(request: HttpRequest, body: Buffer): HttpRequest {
    const stream = new PassThrough();
    stream.end(body);
    const headers = { ...request.headers, 'content-length': String(body.length) };
    delete headers['transfer-encoding'];
    // CSS reads only the head fields and the body stream of a request; the socket is the original one.
    const replayed = guardStream(Object.assign(stream, {
      method: request.method,
      url: request.url,
      headers,
      rawHeaders: request.rawHeaders,
      httpVersion: request.httpVersion,
      httpVersionMajor: request.httpVersionMajor,
      httpVersionMinor: request.httpVersionMinor,
      socket: request.socket,
      connection: request.socket,
      complete: true,
      aborted: false,
      trailers: {},
      rawTrailers: [],
    }) as unknown as IncomingMessage);
    // Who sent it was established once, by the pipeline: a DPoP proof may not be checked twice.
    Operation.of(request)?.bind(replayed);
    return replayed;
  }
}
