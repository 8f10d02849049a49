import { LRUCache } from 'lru-cache';
import { FedpodHttpError } from '../../../util/HttpErrors';
import { messageOf } from '../../../util/Errors';
import type { AccountStore } from '../../accounts/AccountStore';
import { ActorUrls } from '../ActorUrls';
import { RemoteFetchError } from './FetchErrors';
import type { RemoteFetcher } from './RemoteFetcher';

/** A handle split into its parts: `user` and `host` (lower case, with a port when it has one). */
export interface Handle {
  username: string;
  host: string;
}

/** Usernames as servers have them: Mastodon's, and Fedpod's own (dots and dashes inside). */
const USERNAME = /^[a-z0-9_](?:[a-z0-9_.-]{0,62}[a-z0-9_])?$/iu;
/** A DNS name or IPv4 address, with an optional port; no userinfo, path or IPv6 literal. */
const HOST = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::\d{1,5})?$/iu;
const AS_PROFILE = 'https://www.w3.org/ns/activitystreams';
const JRD_ACCEPT = 'application/jrd+json, application/json;q=0.9';

/**
 * Splits `acct:user@host`, `user@host` or `@user@host` into its username and host; `user` alone (or
 * `@user`) is on `localHost`. Undefined when it is none of these.
 */
export function parseHandle(value: string, localHost?: string): Handle | undefined {
  const text = value.trim().replace(/^acct:/iu, '').replace(/^@/u, '');
  const at = text.indexOf('@');
  const username = at < 0 ? text : text.slice(0, at);
  const host = at < 0 ? localHost : text.slice(at + 1);
  if (host === undefined || host.length > 260 || !USERNAME.test(username) || !HOST.test(host)) {
    return undefined;
  }
  return { username: username.toLowerCase(), host: host.toLowerCase() };
}

/** Whether a value is meant as a handle (`acct:…`, `@…`, `user@host`), valid or not, rather than a URL. */
export function looksLikeHandle(value: string): boolean {
  return /^(?:acct:|@)/iu.test(value.trim()) || /^[^\s/:@]+@[^\s/@]+$/u.test(value.trim());
}

/**
 * Outbound WebFinger (RFC 7033): the actor IRI of a handle. Handles of this server are answered from
 * the accounts, without a request; others by a GET of `https://<host>/.well-known/webfinger?resource=acct:…`
 * through `RemoteFetcher` (so through the SSRF guard, its timeout and size limit), taking the `self`
 * link of type `application/activity+json` (or `application/ld+json` with the ActivityStreams
 * profile). `allowHttp` (with --allow-private-network: tests, closed networks) tries `http://` when
 * `https://` cannot be reached at all.
 *
 * Answers are kept (at most `maxEntries`, for `ttlMs`; failures for `negativeTtlMs`), and lookups of
 * the same handle at once share one request. Failures are HTTP errors a handler can answer:
 * 400 `invalid_handle` for what is not a handle, 422 `unresolvable_handle` for a handle whose server
 * does not name an actor for it (unknown, unreachable, refused by the guard, a bad JRD).
 */
export class WebFingerResolver {
  private readonly urls: ActorUrls;
  private readonly localHost: string;
  private readonly cache: LRUCache<string, { actor?: string; error?: FedpodHttpError }>;
  private readonly inflight = new Map<string, Promise<string>>();

  /**
   * @param baseUrl - This server's base URL (its host is the local one).
   * @param fetcher - Outbound GETs (through the SSRF guard).
   * @param accounts - Local accounts, for this server's handles.
   * @param allowHttp - Try http:// when https:// cannot be reached (closed networks, tests).
   * @param ttlMs - How long a resolved handle is kept.
   * @param negativeTtlMs - How long a failure is kept.
   * @param maxEntries - Most handles kept.
   */
  public constructor(
    baseUrl: string,
    private readonly fetcher: RemoteFetcher,
    private readonly accounts: AccountStore,
    private readonly allowHttp = false,
    private readonly ttlMs = 3_600_000,
    private readonly negativeTtlMs = 60_000,
    maxEntries = 10_000,
  ) {
    this.urls = new ActorUrls(baseUrl);
    this.localHost = new URL(this.urls.base).host.toLowerCase();
    this.cache = new LRUCache({ max: maxEntries });
  }

  /** This server's host, as handles of its users name it. */
  public get host(): string {
    return this.localHost;
  }

  /** The handle of an actor of this server (`user@host`), or undefined. */
  public localHandleOf(actor: string): string | undefined {
    const username = this.urls.usernameOf(actor);
    return username === undefined ? undefined : `${username}@${this.localHost}`;
  }

  /** The actor of a handle resolved before and still kept, if any; never asks anyone. */
  public peek(value: string): string | undefined {
    const handle = parseHandle(value, this.localHost);
    return handle ? this.cache.get(`${handle.username}@${handle.host}`)?.actor : undefined;
  }

  /** The actor IRI of a handle (`user` alone is local). Throws FedpodHttpError 400 / 422 (see the class). */
  public async resolve(value: string): Promise<string> {
    const handle = parseHandle(value, this.localHost);
    if (!handle) {
      throw new FedpodHttpError(400, 'invalid_handle', `${value} is not a handle such as @user@host.`);
    }
    const key = `${handle.username}@${handle.host}`;
    const known = this.cache.get(key);
    if (known) {
      if (known.error) {
        throw known.error;
      }
      return known.actor!;
    }
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.lookup(handle).then((actor): string => {
        this.cache.set(key, { actor }, { ttl: this.ttlMs });
        return actor;
      }, (error: unknown): never => {
        const refusal = error instanceof FedpodHttpError ? error : unresolvable(key, messageOf(error));
        this.cache.set(key, { error: refusal }, { ttl: this.negativeTtlMs });
        throw refusal;
      }).finally((): void => {
        this.inflight.delete(key);
      });
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async lookup({ username, host }: Handle): Promise<string> {
    const acct = `${username}@${host}`;
    if (host === this.localHost) {
      const account = await this.accounts.findByUsername(username);
      if (!account) {
        throw unresolvable(acct, 'there is no such user here');
      }
      return this.urls.actor(account.username);
    }
    const path = `/.well-known/webfinger?resource=${encodeURIComponent(`acct:${acct}`)}`;
    let answer;
    try {
      answer = await this.fetcher.getJson(`https://${host}${path}`, { accept: JRD_ACCEPT });
    } catch (error: unknown) {
      // Only a server that cannot be reached at all over TLS is asked over http: never after a refusal.
      if (!this.allowHttp || !(error instanceof RemoteFetchError) || !error.retryable) {
        throw error;
      }
      answer = await this.fetcher.getJson(`http://${host}${path}`, { accept: JRD_ACCEPT });
    }
    if (answer.status < 200 || answer.status > 299) {
      throw unresolvable(acct, `its server answered ${answer.status}`);
    }
    const actor = selfLinkOf(answer.json);
    if (!actor) {
      throw unresolvable(acct, 'its server named no ActivityPub actor for it');
    }
    return actor;
  }
}

/** The `self` link of a JRD that names an ActivityPub actor (an http(s) URL), if any. */
export function selfLinkOf(jrd: unknown): string | undefined {
  if (typeof jrd !== 'object' || jrd === null || !Array.isArray((jrd as { links?: unknown }).links)) {
    return undefined;
  }
  for (const link of (jrd as { links: unknown[] }).links) {
    if (typeof link !== 'object' || link === null) {
      continue;
    }
    const { rel, type, href } = link as Record<string, unknown>;
    if (rel !== 'self' || typeof type !== 'string' || typeof href !== 'string' || !isActivityType(type)) {
      continue;
    }
    try {
      const url = new URL(href);
      if (url.protocol === 'https:' || url.protocol === 'http:') {
        return url.href;
      }
    } catch {
      // Not a URL: look on.
    }
  }
  return undefined;
}

function isActivityType(type: string): boolean {
  const [ mediaType, ...parameters ] = type.split(';').map((part): string => part.trim());
  if (mediaType.toLowerCase() === 'application/activity+json') {
    return true;
  }
  return mediaType.toLowerCase() === 'application/ld+json' &&
    parameters.some((parameter): boolean => parameter.replace(/^profile=|"/gu, '') === AS_PROFILE);
}

function unresolvable(acct: string, why: string): FedpodHttpError {
  return new FedpodHttpError(422, 'unresolvable_handle', `The handle @${acct} could not be resolved: ${why}.`);
}
