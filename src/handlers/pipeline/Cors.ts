import type { IncomingMessage, ServerResponse } from 'node:http';

const EXPOSED = [
  'Accept-Patch', 'Accept-Post', 'Accept-Put', 'Allow', 'Content-Range', 'ETag', 'Last-Modified', 'Link', 'Location',
  'Retry-After', 'Updates-Via', 'WAC-Allow', 'WWW-Authenticate', 'X-Request-Id',
].join(', ');
const METHODS = 'GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE';

/**
 * CORS for every route, as Solid apps and browser clients need it: any origin, with credentials
 * (tokens travel in headers, never in cookies here), the headers clients read exposed. The only CORS
 * step: LDP answers get no second one (CSS's middleware is not in the chain), so what is exposed
 * here is what browsers can read everywhere. (The pipeline's Vary names Origin.)
 */
export const Cors = {
  /** Adds the CORS headers to any answer of a request that has an Origin. */
  decorate(request: IncomingMessage, response: ServerResponse): void {
    const origin = request.headers.origin;
    response.setHeader('access-control-allow-origin', origin ?? '*');
    if (origin !== undefined) {
      response.setHeader('access-control-allow-credentials', 'true');
    }
    response.setHeader('access-control-expose-headers', EXPOSED);
  },

  /** Whether the request is a preflight (an OPTIONS with Access-Control-Request-Method). */
  isPreflight(request: IncomingMessage): boolean {
    return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
  },

  /** Answers a preflight: every method, the headers asked for, for a day. */
  answerPreflight(request: IncomingMessage, response: ServerResponse): void {
    const asked = request.headers['access-control-request-headers'];
    response.writeHead(204, {
      'access-control-allow-methods': METHODS,
      ...asked ? { 'access-control-allow-headers': asked } : {},
      'access-control-max-age': '86400',
      'content-length': '0',
    });
    response.end();
  },
};
