import type { HttpRequest, HttpResponse } from '@solid/community-server';
import { methodNotAllowed } from '../../util/HttpErrors';
import { canonicalTarget } from '../http/CanonicalTarget';

/** What the discovery endpoints answer to; anything else on their paths gets 405 with this Allow. */
export const DISCOVERY_ALLOW = 'GET, HEAD';

/** The JSON Resource Descriptor media type (RFC 7033 / RFC 6415). */
export const JRD = 'application/jrd+json';

/** The base URL as a URL, with a trailing slash. */
export function parseBaseUrl(baseUrl: string): URL {
  return new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
}

/**
 * The base URL's path in the canonical spelling the pipeline gives request paths (OperationTarget),
 * so that a base path with characters CSS encodes (`/a&b/` → `/a%26b/`) still matches.
 */
export function basePathOf(base: URL): string {
  return canonicalTarget(base.pathname)?.pathname ?? base.pathname;
}

/** 405 (with Allow: GET, HEAD) for any method other than GET and HEAD. */
export function requireGetOrHead(request: HttpRequest): void {
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    request.resume();
    throw methodNotAllowed(`${method} is not supported here.`, DISCOVERY_ALLOW);
  }
}

/**
 * Makes sure the response (errors included) carries `Access-Control-Allow-Origin`: discovery documents
 * are public and read from browsers. CSS's CORS middleware, when it ran, has already set it (to the
 * request's Origin, or `*` without one, alongside `Access-Control-Allow-Credentials: true`); that value
 * is kept, since `*` next to Allow-Credentials would make credentialed browser requests fail.
 * Otherwise the header is `*`.
 */
export function allowAnyOrigin(response: HttpResponse): void {
  if (response.getHeader('access-control-allow-origin') === undefined) {
    response.setHeader('access-control-allow-origin', '*');
  }
}

/** Writes a 200 with the given body (headers only for HEAD). */
export function sendDocument(request: HttpRequest, response: HttpResponse, contentType: string, body: string,
  headers: Record<string, string> = {}): void {
  response.writeHead(200, {
    ...headers,
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}
