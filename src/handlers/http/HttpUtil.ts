import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { FedpodHttpError, payloadTooLarge } from '../../util/HttpErrors';
import { parseJsonText } from '../../util/JsonText';
import { prefersHtml } from './BrowserAccept';
import { escapeHtml } from './Html';
import { renderPage } from './PageLayout';
import { messageOf, statusOf } from '../../util/Errors';

/**
 * Sends a file's bytes as the response body (headers already written). Piped, not through
 * stream/promises' pipeline, which makes and aborts an AbortController per call (a DOMException with
 * its stack: a tenth of a thumbnail GET's time under load). A read error ends the response (logged by
 * `onError`); a client gone mid-file closes the file (pipe() alone stops but leaves it open).
 */
export function sendStream(response: ServerResponse, bytes: Readable, onError: (error: Error) => void): void {
  bytes.on('error', (error: Error): void => {
    onError(error);
    response.destroy(error);
  });
  response.once('close', (): void => {
    bytes.destroy();
  });
  bytes.pipe(response);
}

/** Writes a JSON body with the right headers. */
export function sendJson(response: ServerResponse, status: number, body: unknown,
  headers: Record<string, string | string[]> = {}, contentType = 'application/json'): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    'content-type': `${contentType}; charset=utf-8`,
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/**
 * Answers `{ "error": code, "message": text }` for any error, or the same as an HTML page to a
 * browser (`request` given, asking for HTML). HttpErrors keep their status; CSS HttpErrors (with
 * statusCode) too, 4xx and 503; anything else is a 500 whose details stay in the log. With `request`,
 * a body still arriving is read and dropped before the answer ends (endAfterBody).
 */
export function sendError(response: ServerResponse, error: unknown, request?: IncomingMessage): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const { status, body, headers } = errorAnswer(error);
  let text: string;
  let head: Record<string, string | number>;
  if (request && prefersHtml(request)) {
    text = renderPage(undefined, STATUS_CODES[status] ?? 'Error', `<section class="error">
<h1>${escapeHtml(STATUS_CODES[status] ?? 'Error')}</h1>
<p>${escapeHtml(body.message)}</p>
<p class="meta">${status} · <code>${escapeHtml(body.error)}</code></p>
</section>`);
    head = { ...headers, 'content-type': 'text/html; charset=utf-8' };
  } else {
    text = JSON.stringify(body);
    head = { ...headers, 'content-type': 'application/json; charset=utf-8' };
  }
  response.writeHead(status, { ...head, 'content-length': Buffer.byteLength(text) });
  endAfterBody(request, response, text);
}

/**
 * Sends an answer given before the request's body was all received (a 413, a 401), but ends it only
 * once that body has been read and dropped (discardBody, which closes the connection past its cap).
 * Why: when the client sent `Connection: close`, Node closes the connection as soon as the answer
 * ends; body bytes still arriving at the closed socket make the kernel send a reset, and the client
 * often read that reset instead of the answer. The answer's bytes go out at once, so a client can
 * read them while it sends.
 */
function endAfterBody(request: IncomingMessage | undefined, response: ServerResponse, text: string): void {
  if (!request || request.complete || request.destroyed || request.readableEnded) {
    response.end(text);
    return;
  }
  response.write(text);
  const finish = (): void => {
    request.off('end', finish);
    request.off('close', finish);
    response.end();
  };
  request.once('end', finish);
  request.once('close', finish);
  discardBody(request);
}

/** Writes an HTML page with the right headers (only the headers, for a HEAD request: `headOnly`). */
export function sendHtml(response: ServerResponse, status: number, html: string, headers: Record<string, string | string[]> = {},
  headOnly = false): void {
  response.writeHead(status, {
    ...headers,
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
  });
  response.end(headOnly ? undefined : html);
}

/** The one shape of an error's JSON body: a code and a message, and for some errors more (`allowedActions`). */
export type ErrorBody = { error: string; message: string } & Record<string, unknown>;

/** An error as the one answer shape: its status, `{ "error", "message" }` and any headers it needs. */
export function errorAnswer(error: unknown): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (error instanceof FedpodHttpError) {
    return { status: error.statusCode, body: { ...error.details, error: error.errorCode, message: error.message }, headers: error.headers };
  }
  const status = statusOf(error);
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const name = (error as Error).name.replace(/HttpError$/u, '').replace(/([a-z])([A-Z])/gu, '$1_$2').toLowerCase();
    // CSS leaves many messages empty (a 404, a 412): say at least what the status means.
    return { status, body: { error: name || 'bad_request', message: messageOf(error) || `${STATUS_CODES[status] ?? 'Refused'}.` }};
  }
  if (status === 503) {
    // A dependency (the store, the queue's Redis) is away: worth retrying, unlike a 500.
    const code = (error as { errorCode?: unknown }).errorCode;
    return { status, body: { error: typeof code === 'string' ? code : 'service_unavailable', message: messageOf(error) },
      headers: { 'retry-after': '5' }};
  }
  return { status: 500, body: { error: 'internal_error', message: 'The server could not complete the request.' }};
}

/** How much of a refused body is read and dropped before the connection is closed instead. */
const DISCARD_CAP_BYTES = 64 * 1024 * 1024;
/** Requests whose body is being dropped: discardBody is called by several steps, and counts once. */
const discarding = new WeakSet<IncomingMessage>();

/**
 * Reads and drops the rest of a request body that will not be used, so that a client still sending
 * it gets to read the answer (a 413, a 401) instead of a connection reset; past `capBytes` the
 * connection is closed, so a huge upload cannot hold the server.
 */
export function discardBody(request: IncomingMessage, capBytes = DISCARD_CAP_BYTES): void {
  if (request.readableEnded || request.destroyed || discarding.has(request)) {
    return;
  }
  discarding.add(request);
  let seen = 0;
  request.on('data', (chunk: Buffer): void => {
    seen += chunk.length;
    if (seen > capBytes) {
      request.destroy();
    }
  });
  request.resume();
}

/** Bodies a pipeline step read before the handler (peekBody): the handler's readBody gets them. */
const prereadBodies = new WeakMap<IncomingMessage, Buffer>();

/**
 * Reads the whole body for a step before the handler (a rate limit keyed by the login's username),
 * and keeps it for the handler's own readBody.
 */
export async function peekBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const body = await readBody(request, limit);
  prereadBodies.set(request, body);
  return body;
}

/**
 * Reads the whole body, refusing more than `limit` bytes with 413 (checked before and while reading).
 * Listens for the stream's events rather than iterating it: an async iterator per request was a
 * visible share of a webhook POST's cost. Past the limit the rest is read and dropped (discardBody).
 */
export async function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const preread = prereadBodies.get(request);
  if (preread) {
    prereadBodies.delete(request);
    if (preread.length > limit) {
      throw payloadTooLarge(`The body is larger than the limit of ${limit} bytes.`);
    }
    return preread;
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    discardBody(request);
    throw payloadTooLarge(`The body is larger than the limit of ${limit} bytes.`);
  }
  if (request.readableEnded) {
    return Buffer.alloc(0);
  }
  if (request.destroyed) {
    throw Object.assign(new Error('The request closed before its body ended.'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
  }
  return new Promise<Buffer>((resolve, reject): void => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
    };
    function onData(chunk: Buffer): void {
      size += chunk.length;
      if (size > limit) {
        // Keep no more, but read on: a client still sending can then read the 413.
        stop();
        discardBody(request, DISCARD_CAP_BYTES - size);
        reject(payloadTooLarge(`The body is larger than the limit of ${limit} bytes.`));
        return;
      }
      chunks.push(chunk);
    }
    function onEnd(): void {
      stop();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    }
    function onError(error: Error): void {
      stop();
      reject(error);
    }
    function onClose(): void {
      // Closed before its end: the client went away mid-body.
      stop();
      reject(Object.assign(new Error('The request closed before its body ended.'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    }
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('close', onClose);
  });
}

/**
 * The body of a JSON request (its media type is the route's to check): 413 past `limit`, 400
 * `invalid_json` when it does not parse, 400 `too_deeply_nested` past MAX_JSON_DEPTH.
 */
export async function readJsonBody(request: IncomingMessage, limit: number): Promise<unknown> {
  return parseJson((await readBody(request, limit)).toString('utf8'));
}

/** JSON text from a client parsed, or a 400 (`invalid_json`, or `too_deeply_nested` past MAX_JSON_DEPTH). */
export function parseJson(text: string): unknown {
  return parseJsonText(text);
}

/** The media type of a Content-Type header, lowercased, without parameters. */
export function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

interface AcceptEntry {
  type: string;
  q: number;
  specificity: number;
  params: string;
}

function parseAccept(header: string): AcceptEntry[] {
  return header.split(',').map((part): AcceptEntry | undefined => {
    const [ rawType, ...rawParams ] = part.split(';').map((piece): string => piece.trim());
    if (!rawType) {
      return undefined;
    }
    let q = 1;
    const params: string[] = [];
    for (const param of rawParams) {
      const [ key, value ] = param.split('=').map((piece): string => piece.trim());
      if (key.toLowerCase() === 'q') {
        q = Number(value);
      } else if (key) {
        params.push(`${key.toLowerCase()}=${(value ?? '').replace(/^"|"$/gu, '')}`);
      }
    }
    const type = rawType.toLowerCase();
    const specificity = type === '*/*' ? 0 : type.endsWith('/*') ? 1 : 2;
    return { type, q: Number.isFinite(q) ? q : 0, specificity, params: params.join(';') };
  }).filter((entry): entry is AcceptEntry => entry !== undefined);
}

export interface Negotiated {
  type: string;
  /** True when only a wildcard matched. */
  wildcard: boolean;
  /** Media type parameters the client gave on the matching entry (e.g. a JSON-LD profile). */
  params: string;
}

/**
 * Picks the offered media type the Accept header prefers (q-values, then specificity, then offer order).
 * A missing Accept header means `*\/*`. Returns undefined when nothing offered is acceptable.
 */
export function negotiate(accept: string | undefined, offered: readonly string[]): Negotiated | undefined {
  const entries = parseAccept(accept && accept.trim() !== '' ? accept : '*/*');
  let best: (Negotiated & { q: number; rank: number }) | undefined;
  offered.forEach((type, order): void => {
    const [ major ] = type.split('/');
    let match: AcceptEntry | undefined;
    for (const entry of entries) {
      const fits = entry.type === type || entry.type === '*/*' || entry.type === `${major}/*`;
      if (fits && (!match || entry.specificity > match.specificity)) {
        match = entry;
      }
    }
    if (!match || match.q <= 0) {
      return;
    }
    const rank = match.specificity * 1000 - order;
    if (!best || match.q > best.q || (match.q === best.q && rank > best.rank)) {
      best = { type, wildcard: match.specificity < 2, params: match.params, q: match.q, rank };
    }
  });
  return best ? { type: best.type, wildcard: best.wildcard, params: best.params } : undefined;
}
