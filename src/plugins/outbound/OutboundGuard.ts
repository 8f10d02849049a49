import http, { type Agent } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { errnoOf, messageOf } from '../../util/Errors';
import { DEFAULT_OUTBOUND_BOUNDS, GuardedHttpAgent, GuardedHttpsAgent, type OutboundBounds } from './GuardedAgents';
import { RemoteFetchError } from './OutboundErrors';
import { followRedirect, REDIRECT_STATUSES, withoutFragment } from './Redirects';
import { SsrfGuard } from './SsrfGuard';

export interface OutboundGetOptions {
  /** The Accept header; `*\/*` by default. */
  accept?: string;
  /** Largest body accepted, in bytes; the guard's `maxResponseBytes` by default. */
  maxBytes?: number;
  /** Time for the whole GET, redirects included, in ms; the guard's `timeoutMs` by default. */
  timeoutMs?: number;
  /** Redirects followed, each checked again (never from https to http); 3 by default. */
  maxRedirects?: number;
}

export interface OutboundResponse {
  status: number;
  /** The URL that answered, after redirects (without fragment). */
  url: string;
  /** The media type, without parameters, in lower case. */
  contentType?: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}


/**
 * The server's one outbound guard, for everything a request can make it fetch (see
 * docs/robustness.md#outbound-requests): client ID documents, WebIDs and issuers of Solid tokens,
 * the OpenID provider's fetches (clients' `jwks_uri`), and, through ProcessOutboundGuard, every
 * request of a library made with Node's global agents or `fetch`. Loopback, private, link-local and
 * the other reserved addresses are refused unless `allowPrivateNetwork`; the server's own origin (its
 * base URL) is always reached, wherever it resolves to: tokens this server issued name it as their
 * issuer, and their WebIDs are here. Every request is bounded in time and size.
 */
export class OutboundGuard {
  public readonly guard: SsrfGuard;
  public readonly bounds: OutboundBounds;
  // Typed as node's Agent (https.Agent is one): the component generator knows that name only (.componentsignore).
  public readonly httpAgent: Agent;
  public readonly httpsAgent: Agent;

  /**
   * @param baseUrl - The server's public base URL: its origin is always reached.
   * @param allowPrivateNetwork - Let requests reach loopback, private and other reserved addresses.
   * @param timeoutMs - Longest one request may take, connecting included.
   * @param maxResponseBytes - Largest response accepted.
   * @param userAgent - The User-Agent of the requests made by `get`.
   */
  public constructor(
    baseUrl: string,
    allowPrivateNetwork = false,
    timeoutMs = DEFAULT_OUTBOUND_BOUNDS.timeoutMs,
    maxResponseBytes = DEFAULT_OUTBOUND_BOUNDS.maxResponseBytes,
    private readonly userAgent = 'Fedpod',
  ) {
    this.guard = new SsrfGuard(allowPrivateNetwork, baseUrl ? [ baseUrl ] : []);
    // The agents' size limit counts the head too.
    this.bounds = { timeoutMs, maxResponseBytes };
    const agentBounds = { timeoutMs, maxResponseBytes: maxResponseBytes + 65_536 };
    this.httpAgent = new GuardedHttpAgent(this.guard, agentBounds);
    this.httpsAgent = new GuardedHttpsAgent(this.guard, agentBounds);
  }

  /** The agent for a URL's scheme. */
  public agentFor(url: URL | string): Agent {
    return new URL(url).protocol === 'https:' ? this.httpsAgent : this.httpAgent;
  }

  /** The guard's DNS lookup, for clients that take one. */
  public lookupFunction(): LookupFunction {
    return this.guard.lookupFunction();
  }

  /** Throws SsrfBlockedError when the URL may not be fetched (scheme, credentials, IP-literal host). */
  public checkUrl(url: string | URL): URL {
    return this.guard.checkUrl(url);
  }

  /**
   * GETs a document through the guard. HTTP statuses are results; a refused URL or address throws
   * SsrfBlockedError, a network failure, a timeout, too many redirects or a body over the limit
   * RemoteFetchError.
   */
  public async get(url: string, options: OutboundGetOptions = {}): Promise<OutboundResponse> {
    const maxBytes = options.maxBytes ?? this.bounds.maxResponseBytes;
    const deadline = Date.now() + (options.timeoutMs ?? this.bounds.timeoutMs);
    const maxRedirects = options.maxRedirects ?? 3;
    let current = withoutFragment(this.guard.checkUrl(url));
    for (let redirects = 0; ; redirects += 1) {
      const answer = await this.once(current, options.accept ?? '*/*', maxBytes, deadline);
      const location = answer.headers.location;
      if (!REDIRECT_STATUSES.has(answer.status) || typeof location !== 'string' || location === '') {
        return answer;
      }
      current = followRedirect(this.guard, current, location, redirects, maxRedirects, url);
    }
  }

  private async once(url: URL, accept: string, maxBytes: number, deadline: number): Promise<OutboundResponse> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      throw timedOut(url, deadline);
    }
    const isHttps = url.protocol === 'https:';
    return new Promise<OutboundResponse>((resolve, reject): void => {
      let settled = false;
      const finish = (error: Error | undefined, response?: OutboundResponse): void => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          if (error) {
            reject(error);
          } else {
            resolve(response!);
          }
        }
      };
      const request = (isHttps ? https : http).request({
        method: 'GET',
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/gu, ''),
        port: url.port || (isHttps ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        headers: { accept, 'user-agent': this.userAgent, host: url.host },
        agent: isHttps ? this.httpsAgent : this.httpAgent,
      }, (response): void => {
        const declared = Number(response.headers['content-length']);
        if (declared > maxBytes) {
          response.destroy();
          finish(tooLarge(url, maxBytes));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer): void => {
          size += chunk.length;
          if (size > maxBytes) {
            response.destroy();
            finish(tooLarge(url, maxBytes));
          } else {
            chunks.push(chunk);
          }
        });
        response.on('end', (): void => {
          const contentType = response.headers['content-type']?.split(';')[0].trim().toLowerCase();
          finish(undefined, { status: response.statusCode ?? 0, url: url.href, headers: response.headers, body: Buffer.concat(chunks),
            ...contentType ? { contentType } : {}});
        });
        response.on('error', (error: Error): void => finish(networkError(error, url)));
        response.on('close', (): void => {
          if (!response.complete) {
            finish(networkError(new Error('connection closed before the response ended'), url));
          }
        });
      });
      const timer = setTimeout((): void => {
        const error = timedOut(url, deadline);
        finish(error);
        request.destroy(error);
      }, remaining);
      request.on('error', (error: Error): void => finish(networkError(error, url)));
      request.end();
    });
  }
}

function timedOut(url: URL, deadline: number): RemoteFetchError {
  return new RemoteFetchError(`Request to ${url.origin} timed out (deadline ${new Date(deadline).toISOString()})`, true, 'ETIMEDOUT');
}

function tooLarge(url: URL, limit: number): RemoteFetchError {
  return new RemoteFetchError(`The response from ${url.origin} is larger than ${limit} bytes`, false, 'TOO_LARGE');
}

function networkError(error: Error, url: URL): RemoteFetchError {
  if (error instanceof RemoteFetchError) {
    return error;
  }
  return new RemoteFetchError(`Request to ${url.origin} failed: ${messageOf(error)}`, true, errnoOf(error) ?? 'ENETWORK');
}
