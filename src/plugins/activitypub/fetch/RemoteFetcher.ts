import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { HttpSigner } from '../signatures/HttpSigner';
import type { SigningKey } from '../signatures/SignatureCommon';
import { RemoteFetchError } from './FetchErrors';
import { IdleSocketCap } from './IdleSocketCap';
import type { PostAnswer } from './OriginPools';
import { OriginPools } from './OriginPools';
import { SELF_GUARDED_AGENT } from '../../outbound/GuardedAgents';
import { guardedConnector } from '../../outbound/GuardedDispatcher';
import { followRedirect, REDIRECT_STATUSES, withoutFragment } from '../../outbound/Redirects';
import { SsrfGuard } from '../../outbound/SsrfGuard';
import type { DomainPolicy } from '../../outbound/DomainPolicy';
import { errnoOf, messageOf } from '../../../util/Errors';

export interface GetJsonOptions {
  /** The Accept header; `application/activity+json` by default. */
  accept?: string;
  /** Sign the GET (draft-cavage) with this key, for servers with authorized fetch. */
  signWith?: SigningKey;
}

export interface GetJsonResult {
  status: number;
  /** The parsed body: only for a 2xx answer with a JSON media type (`application/json`, `…+json`). */
  json?: unknown;
  /** The URL that answered, after redirects (without fragment). */
  finalUrl: string;
  contentType?: string;
}

export interface PostResult {
  status: number;
  /** Retry-After of a 429/503 (or any) answer, in seconds from now. */
  retryAfter?: number;
}

interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Only for 2xx answers. */
  body?: Buffer;
}

const MAX_REDIRECTS = 3;
const JSON_TYPE = /^application\/(?:[a-z0-9.+-]+\+)?json$/u;
/**
 * Idle keep-alive connections across all hosts, at most. As Mastodon's request pool (30 s, 512): a
 * server that posts more than twice a minute reaches its followers' hosts without a new TLS
 * handshake (1.5-2 ms of CPU each on Node 20's OpenSSL 3, most of a shared-inbox delivery's cost).
 */
const MAX_IDLE_SOCKETS = 512;

/**
 * Server-to-server HTTP client for federation: actor/key fetches (`getJson`, node:http(s)) and
 * deliveries (`post`, undici's pools: `OriginPools`). Keep-alive connections whose DNS lookup goes through `SsrfGuard`, an
 * overall timeout per request, a response size limit, up to 3 redirects for GETs (each re-checked,
 * never https → http), optional signed GETs, and at most `maxPerHost` requests in flight per host
 * (the rest wait in order).
 *
 * Errors: HTTP statuses are results, never exceptions. Network failures and timeouts throw
 * `RemoteFetchError` with `retryable: true`; refused URLs/addresses (`SsrfBlockedError`), too many
 * redirects and oversized bodies throw with `retryable: false`, as does a request to a suspended
 * domain (`domains`: nothing is sent to, or fetched from, a server the operator cut off).
 */
export class RemoteFetcher {
  private readonly guard: SsrfGuard;
  private readonly signer = new HttpSigner();
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly idleSockets = new IdleSocketCap(MAX_IDLE_SOCKETS);
  private readonly deliveries: OriginPools;
  private readonly slots = new Map<string, { active: number; waiting: (() => void)[] }>();

  public constructor(
    allowPrivateNetwork: boolean,
    private readonly timeoutMs = 10_000,
    private readonly userAgent = 'Fedpod',
    private readonly maxPerHost = 8,
    private readonly maxResponseBytes = 1_048_576,
    idleSocketMs = 30_000,
    private readonly domains?: DomainPolicy,
  ) {
    this.guard = new SsrfGuard(allowPrivateNetwork);
    const agentOptions = {
      keepAlive: true,
      maxSockets: maxPerHost,
      // Node's agent keeps a socket shorter where the server announces less (Keep-Alive: timeout=N, less 1 s).
      timeout: idleSocketMs,
      lookup: this.guard.lookupFunction(),
    };
    this.httpAgent = new http.Agent(agentOptions);
    // One TLS context for every connection: without it each new connection builds its own, loading
    // the root certificates again (about a third of a connection's set-up on the main thread in a
    // fan-out that opens a connection per host and slot).
    const secureContext = tls.createSecureContext();
    this.httpsAgent = new https.Agent({ ...agentOptions, secureContext });
    this.deliveries = new OriginPools({
      connect: guardedConnector(this.guard, { timeout: timeoutMs, secureContext }),
      connectionsPerOrigin: maxPerHost,
      idleMs: idleSocketMs,
      maxSockets: MAX_IDLE_SOCKETS,
      timeoutMs,
      maxResponseBytes,
    });
    // Their lookup is the guard's, and every URL is checked before its request: the process-wide
    // backstop need not check their connections again.
    for (const agent of [ this.httpAgent, this.httpsAgent ]) {
      Object.defineProperty(agent, SELF_GUARDED_AGENT, { value: true });
    }
    this.idleSockets.watch(this.httpAgent);
    this.idleSockets.watch(this.httpsAgent);
  }

  /** GETs a JSON document, following redirects. Throws `RemoteFetchError` (see the class). */
  public async getJson(url: string, options: GetJsonOptions = {}): Promise<GetJsonResult> {
    let current = this.guard.checkUrl(url);
    for (let redirects = 0; ; redirects += 1) {
      current = withoutFragment(current);
      await this.refuseSuspended(current);
      const headers: Record<string, string> = {
        accept: options.accept ?? 'application/activity+json',
        'user-agent': this.userAgent,
        host: current.host,
      };
      if (options.signWith !== undefined) {
        Object.assign(headers, this.signer.sign({ method: 'GET', url: current.href, headers }, options.signWith, 'cavage'));
      }
      const answer = await this.exchange(current, headers);
      const location = answer.headers.location;
      if (REDIRECT_STATUSES.has(answer.status) && typeof location === 'string' && location !== '') {
        current = followRedirect(this.guard, current, location, redirects, MAX_REDIRECTS, url);
        continue;
      }
      const contentType = answer.headers['content-type']?.split(';')[0].trim().toLowerCase();
      const result: GetJsonResult = { status: answer.status, finalUrl: current.href };
      if (contentType !== undefined) {
        result.contentType = contentType;
      }
      if (answer.body !== undefined && contentType !== undefined && JSON_TYPE.test(contentType)) {
        try {
          result.json = JSON.parse(answer.body.toString('utf8'));
        } catch {
          // Not JSON after all: no `json`.
        }
      }
      return result;
    }
  }

  /**
   * POSTs a delivery. `headers` are sent as given (sign them with `HttpSigner` first); `Host`,
   * `User-Agent` and `Content-Type: application/activity+json` are added when missing.
   */
  public async post(url: string, body: Buffer | string, headers: Record<string, string>): Promise<PostResult> {
    const target = withoutFragment(this.guard.checkUrl(url));
    await this.refuseSuspended(target);
    const sent: Record<string, string> = { ...headers };
    const has = (name: string): boolean => Object.keys(sent).some((key) => key.toLowerCase() === name);
    if (!has('host')) {
      sent.host = target.host;
    }
    if (!has('user-agent')) {
      sent['user-agent'] = this.userAgent;
    }
    if (!has('content-type')) {
      sent['content-type'] = 'application/activity+json';
    }
    const answer = await this.inSlot(target.host, async(): Promise<PostAnswer> => this.postOnce(target, sent, body));
    const result: PostResult = { status: answer.status };
    const retryAfter = parseRetryAfter(answer.retryAfter);
    if (retryAfter !== undefined) {
      result.retryAfter = retryAfter;
    }
    return result;
  }

  private async postOnce(target: URL, headers: Record<string, string>, body: Buffer | string): Promise<PostAnswer> {
    try {
      return await this.deliveries.post(target, headers, body);
    } catch (error: unknown) {
      if (errnoOf(error) === 'UND_ERR_INVALID_ARG') {
        // E.g. a header value with a line break.
        throw new RemoteFetchError(`Invalid request to ${target.origin}: ${messageOf(error)}`, false, 'EINVALID');
      }
      throw networkError(error as Error, target, (error as { reusedSocket?: boolean }).reusedSocket === true);
    }
  }

  private async refuseSuspended(url: URL): Promise<void> {
    if (this.domains && await this.domains.refuses(url.hostname.replace(/^\[|\]$/gu, ''))) {
      throw new RemoteFetchError(`${url.host} is suspended on this server: nothing is sent to it or fetched from it`, false, 'DOMAIN_BLOCKED');
    }
  }

  /** Closes idle keep-alive connections. */
  public close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
    this.deliveries.close();
  }

  /** A GET, its body kept when the answer is a 2xx. */
  private async exchange(url: URL, headers: Record<string, string>): Promise<Exchange> {
    return this.inSlot(url.host, async(): Promise<Exchange> => this.once(url, headers));
  }

  /**
   * Runs one request in one of the host's slots (`maxPerHost`), sent once more at once when it failed
   * on a keep-alive connection the server closed meanwhile.
   */
  private async inSlot<T>(host: string, request: () => Promise<T>): Promise<T> {
    const release = await this.acquire(host);
    try {
      try {
        return await request();
      } catch (error: unknown) {
        if ((error as { reusedSocket?: boolean }).reusedSocket === true) {
          return await request();
        }
        throw error;
      }
    } finally {
      release();
    }
  }

  private once(url: URL, headers: Record<string, string>): Promise<Exchange> {
    const isHttps = url.protocol === 'https:';
    const options: http.RequestOptions = {
      method: 'GET',
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/gu, ''),
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers,
      agent: isHttps ? this.httpsAgent : this.httpAgent,
    };
    return new Promise<Exchange>((resolve, reject): void => {
      let settled = false;
      const finish = (error: Error | undefined, exchange?: Exchange): void => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          if (error === undefined) {
            resolve(exchange!);
          } else {
            reject(error);
          }
        }
      };
      let req: http.ClientRequest;
      try {
        req = (isHttps ? https : http).request(options, (res): void => {
          this.readResponse(res, url, finish, req.reusedSocket);
        });
      } catch (error: unknown) {
        // E.g. a header value with a line break.
        reject(new RemoteFetchError(`Invalid request to ${url.origin}: ${messageOf(error)}`, false, 'EINVALID'));
        return;
      }
      const timer = setTimeout((): void => {
        const error = new RemoteFetchError(`Request to ${url.origin} timed out after ${this.timeoutMs} ms`, true, 'ETIMEDOUT');
        finish(error);
        req.destroy(error);
      }, this.timeoutMs);
      req.on('socket', (socket): void => this.idleSockets.taken(socket));
      req.on('error', (error: Error): void => finish(networkError(error, url, req.reusedSocket)));
      req.end();
    });
  }

  private readResponse(
    res: http.IncomingMessage,
    url: URL,
    finish: (error: Error | undefined, exchange?: Exchange) => void,
    reusedSocket: boolean,
  ): void {
    const status = res.statusCode ?? 0;
    const collect = status >= 200 && status < 300;
    if (collect && Number(res.headers['content-length']) > this.maxResponseBytes) {
      res.destroy();
      finish(tooLarge(url, this.maxResponseBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer): void => {
      size += chunk.length;
      if (size > this.maxResponseBytes) {
        res.destroy();
        // The status is all a non-2xx fetch needs.
        finish(collect ? tooLarge(url, this.maxResponseBytes) : undefined, { status, headers: res.headers });
      } else if (collect) {
        chunks.push(chunk);
      }
    });
    res.on('end', (): void => {
      finish(undefined, { status, headers: res.headers, ...collect ? { body: Buffer.concat(chunks) } : {} });
    });
    res.on('error', (error: Error): void => finish(networkError(error, url, reusedSocket)));
    res.on('close', (): void => {
      if (!res.complete) {
        finish(networkError(new Error('connection closed before the response ended'), url, reusedSocket));
      }
    });
  }

  private async acquire(host: string): Promise<() => void> {
    let slot = this.slots.get(host);
    if (slot === undefined) {
      slot = { active: 0, waiting: [] };
      this.slots.set(host, slot);
    }
    const entry = slot;
    if (entry.active >= this.maxPerHost) {
      await new Promise<void>((resolve): void => {
        entry.waiting.push(resolve);
      });
    } else {
      entry.active += 1;
    }
    let released = false;
    return (): void => {
      if (released) {
        return;
      }
      released = true;
      const next = entry.waiting.shift();
      if (next !== undefined) {
        next(); // The slot passes straight to the next waiter.
      } else {
        entry.active -= 1;
        if (entry.active === 0) {
          this.slots.delete(host);
        }
      }
    };
  }
}


function tooLarge(url: URL, limit: number): RemoteFetchError {
  return new RemoteFetchError(`The response from ${url.origin} is larger than ${limit} bytes`, false, 'TOO_LARGE');
}

function networkError(error: Error, url: URL, reusedSocket: boolean): RemoteFetchError {
  if (error instanceof RemoteFetchError) {
    return error;
  }
  const code = errnoOf(error) ?? 'ENETWORK';
  const wrapped = new RemoteFetchError(`Request to ${url.origin} failed: ${error.message}`, true, code);
  // Only a reset of a reused keep-alive socket is worth an immediate second try (UND_ERR_SOCKET: undici's "other side closed").
  if (reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ENETWORK' || code === 'UND_ERR_SOCKET')) {
    Object.defineProperty(wrapped, 'reusedSocket', { value: true });
  }
  return wrapped;
}

/** Retry-After as seconds from now: delta-seconds or an HTTP-date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const text = value.trim();
  if (/^\d+$/u.test(text)) {
    return Number(text);
  }
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
