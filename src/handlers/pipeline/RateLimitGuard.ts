import type { RateCounter, RateLimit } from '../../plugins/cluster/RateCounter';
import { FedpodHttpError } from '../../util/HttpErrors';
import { clientAddress } from '../http/ClientAddress';
import { mediaTypeOf, parseJson, peekBody } from '../http/HttpUtil';
import type { Operation } from '../http/Operation';
import type { Guard } from './Guard';

/**
 * What a request is counted by: the client's address (`ip`); the authenticated user (`account`;
 * anonymous requests are not counted); the client's address for anonymous requests only
 * (`anonymousIp`, beside an `account` limit for the others); or the first of `fields` the JSON or
 * form body names (`fields`: the username or email a login is for, so a brute force of one account
 * from many addresses is counted too; a body naming none is not counted).
 */
export type RateLimitKey = 'ip' | 'account' | 'anonymousIp' | 'fields';

/** What a rate limit declares (an options object: more than six settings). */
export interface RateLimitGuardOptions {
  /** Names the limit's counters, in messages too; guards with one name count together. */
  name: string;
  counter: RateCounter;
  /** Requests a key may make in a window. */
  points: number;
  /** The window, in seconds. */
  durationSeconds: number;
  key: RateLimitKey;
  /** Body fields of the `fields` key, e.g. `username`, `email`, `login` (the first present counts). */
  fields?: string[];
  /** Methods counted; none: every method (so a route's reads can go uncounted). */
  methods?: string[];
  /** The Mastodon client API's error text (`{ "error": "Too many requests" }`) and X-RateLimit-* headers. */
  mastodon?: boolean;
  /** False switches the limit off (`--no-rate-limits`). */
  enabled?: boolean;
  /** The client's address from X-Forwarded-For (`--trust-proxy`). */
  trustProxy?: boolean;
}

/** Largest body read to find a `fields` key: logins and password forms are small. */
const MAX_PEEK_BYTES = 16 * 1024;

/**
 * A rate limit a route declares: at most `points` requests per key (address, user or login name)
 * in `durationSeconds`, counted by the backend's RateCounter (in memory, or in Redis for every node);
 * over it, 429 with Retry-After (and nothing done).
 */
export class RateLimitGuard implements Guard {
  private readonly limit: RateLimit;
  private readonly methods?: Set<string>;

  public constructor(private readonly options: RateLimitGuardOptions) {
    this.limit = { name: options.name, points: options.points, durationSeconds: options.durationSeconds };
    this.methods = options.methods && options.methods.length > 0 ?
      new Set(options.methods.map((method): string => method.toUpperCase())) :
      undefined;
  }

  public async check(operation: Operation): Promise<void> {
    if (this.options.enabled === false || this.methods?.has(operation.method) === false) {
      return;
    }
    const key = await this.keyOf(operation);
    if (key === undefined) {
      return;
    }
    const verdict = await this.options.counter.hit(this.limit, key);
    if (this.options.mastodon) {
      const reset = new Date(Date.now() + verdict.retryAfterSeconds * 1000).toISOString();
      operation.response.setHeader('x-ratelimit-limit', String(this.limit.points));
      operation.response.setHeader('x-ratelimit-remaining', String(verdict.remaining));
      operation.response.setHeader('x-ratelimit-reset', reset);
    }
    if (!verdict.allowed) {
      const message = `Too many requests: at most ${this.limit.points} in ${this.limit.durationSeconds} s ` +
        `(${this.limit.name}); try again in ${verdict.retryAfterSeconds} s.`;
      throw new FedpodHttpError(429, this.options.mastodon ? 'Too many requests' : 'too_many_requests', message,
        { 'retry-after': String(verdict.retryAfterSeconds) });
    }
  }

  private async keyOf(operation: Operation): Promise<string | undefined> {
    const agent = operation.agent.webId ?? operation.agent.remoteActor;
    switch (this.options.key) {
      case 'account':
        return agent;
      case 'anonymousIp':
        return agent ? undefined : clientAddress(operation.request, this.options.trustProxy === true);
      case 'fields':
        return this.fieldOf(operation);
      default:
        return clientAddress(operation.request, this.options.trustProxy === true);
    }
  }

  private async fieldOf(operation: Operation): Promise<string | undefined> {
    const type = mediaTypeOf(operation.request.headers['content-type']);
    if (type !== 'application/json' && type !== 'application/x-www-form-urlencoded') {
      return undefined;
    }
    const text = (await peekBody(operation.request, MAX_PEEK_BYTES)).toString('utf8');
    let read: (name: string) => unknown;
    if (type === 'application/json') {
      let body: unknown;
      try {
        body = parseJson(text);
      } catch {
        // The handler answers a body that does not parse.
        return undefined;
      }
      const record = body && typeof body === 'object' && !Array.isArray(body) ? body as Record<string, unknown> : {};
      read = (name): unknown => record[name];
    } else {
      const form = new URLSearchParams(text);
      read = (name): unknown => form.get(name) ?? undefined;
    }
    for (const field of this.options.fields ?? []) {
      const value = read(field);
      if (typeof value === 'string' && value.trim().length > 0) {
        // The value alone: a username sent as `username` and as `login` is one account.
        return value.trim().toLowerCase();
      }
    }
    return undefined;
  }
}
