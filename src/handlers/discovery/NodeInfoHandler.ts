import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { OperationInput } from '../http/Operation';
import type { AccountStore } from '../../plugins/accounts/AccountStore';
import type { ObjectThreads } from '../../plugins/activitypub/ObjectThreads';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import { allowAnyOrigin, basePathOf, parseBaseUrl, requireGetOrHead, sendDocument } from './DiscoveryHttp';

/** The link relation (and schema id) of NodeInfo 2.1. */
export const NODEINFO_21_REL = 'http://nodeinfo.diaspora.software/ns/schema/2.1';

/** The media type of a NodeInfo 2.1 document. */
export const NODEINFO_21_TYPE = `application/json; profile="${NODEINFO_21_REL}#"`;

/** NodeInfo's usage. */
interface Usage {
  users: { total: number; activeMonth?: number; activeHalfyear?: number };
  localPosts: number;
}

/** What NodeInfo says about the software, read once from Fedpod's package.json. */
export interface SoftwareInfo {
  name: string;
  version: string;
  repository?: string;
  homepage?: string;
}

interface PackageJson {
  name?: unknown;
  version?: unknown;
  homepage?: unknown;
  repository?: unknown;
}

/** An http(s) URL from a package.json `repository` (string or `{ url }`), without `git+` and `.git`. */
function repositoryUrl(repository: unknown): string | undefined {
  const raw = typeof repository === 'string' ? repository : (repository as { url?: unknown } | undefined)?.url;
  if (typeof raw !== 'string') {
    return undefined;
  }
  const url = raw.replace(/^git\+/u, '').replace(/\.git$/u, '');
  return /^https?:\/\//u.test(url) ? url : undefined;
}

/** Fedpod's package.json, found by walking up from this file (src/ in tests, dist/ when built). */
export function readSoftwareInfo(from = __dirname): SoftwareInfo {
  let dir = from;
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
      if (pkg.name === 'fedpod') {
        const info: SoftwareInfo = { name: 'fedpod', version: typeof pkg.version === 'string' ? pkg.version : '0.0.0' };
        const repository = repositoryUrl(pkg.repository);
        if (repository) {
          info.repository = repository;
        }
        if (typeof pkg.homepage === 'string' && /^https?:\/\//u.test(pkg.homepage)) {
          info.homepage = pkg.homepage;
        }
        return info;
      }
    } catch {
      // No (readable) package.json here: look further up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      return { name: 'fedpod', version: '0.0.0' };
    }
    dir = parent;
  }
}

/**
 * NodeInfo (https://nodeinfo.diaspora.software/): `{base}.well-known/nodeinfo` links to the NodeInfo 2.1
 * document at `{base}nodeinfo/2.1`, which fediverse crawlers and servers read for the software, its
 * protocols (activitypub), whether registrations are open, the number of users, those active in the
 * last month and half-year, and the local posts.
 *
 * The user count comes from `AccountStore.list()` and is cached for `userCountTtlMs` (60 s by default),
 * so that crawlers cannot make every request list the accounts. GET and HEAD only (else 405).
 */
export class NodeInfoHandler extends JsonHttpHandler {
  private readonly wellKnownPath: string;
  private readonly documentPath: string;
  private readonly wellKnownBody: string;
  private readonly software = readSoftwareInfo();
  private userCount?: { value: Promise<number>; expires: number };
  private usage?: { value: Promise<Usage>; expires: number };

  /**
   * @param baseUrl - Public base URL; the endpoints are `{baseUrl}.well-known/nodeinfo` and `{baseUrl}nodeinfo/2.1`.
   * @param accountStore - Where the accounts are counted.
   * @param openRegistrations - What the document says about signups.
   * @param userCountTtlMs - How long a user count (and the usage counts) is reused, in milliseconds.
   * @param threads - Where local posts and active users are counted; without it NodeInfo says 0 posts.
   */
  public constructor(
    baseUrl: string,
    private readonly accountStore: AccountStore,
    private readonly openRegistrations = true,
    private readonly userCountTtlMs = 60_000,
    private readonly threads?: ObjectThreads,
  ) {
    super();
    const base = parseBaseUrl(baseUrl);
    const prefix = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
    this.wellKnownPath = `${basePathOf(base)}.well-known/nodeinfo`;
    this.documentPath = `${basePathOf(base)}nodeinfo/2.1`;
    this.wellKnownBody = JSON.stringify({ links: [{ rel: NODEINFO_21_REL, href: `${prefix}nodeinfo/2.1` }]});
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    const requested = operation.target.path;
    // OPTIONS (CORS preflight) is left to CSS.
    if ((requested !== this.wellKnownPath && requested !== this.documentPath) || request.method === 'OPTIONS') {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    allowAnyOrigin(response);
    requireGetOrHead(request);
    if (operation.target.path === this.wellKnownPath) {
      sendDocument(request, response, 'application/json; charset=utf-8', this.wellKnownBody, {
        'cache-control': 'public, max-age=3600',
      });
      return;
    }
    const document = {
      version: '2.1',
      software: this.software,
      protocols: [ 'activitypub' ],
      services: { inbound: [], outbound: []},
      openRegistrations: this.openRegistrations,
      usage: await this.countUsage(),
      metadata: {},
    };
    sendDocument(request, response, NODEINFO_21_TYPE, JSON.stringify(document), {
      'cache-control': `public, max-age=${Math.floor(this.userCountTtlMs / 1000)}`,
    });
  }

  /**
   * Users, those active (who posted anything) in the last 30 and 180 days, and local posts, as
   * Mastodon reports them; counted at most once per TTL, as the users are.
   */
  private async countUsage(): Promise<Usage> {
    const total = await this.countUsers();
    if (!this.threads) {
      return { users: { total }, localPosts: 0 };
    }
    const now = Date.now();
    if (!this.usage || this.usage.expires <= now) {
      const threads = this.threads;
      const day = 24 * 60 * 60 * 1000;
      const value = Promise.all([ threads.activeUsers(new Date(now - (30 * day))), threads.activeUsers(new Date(now - (180 * day))),
        threads.localPosts() ]).then(([ activeMonth, activeHalfyear, localPosts ]): Usage =>
        ({ users: { total, activeMonth, activeHalfyear }, localPosts }));
      const entry = { value, expires: now + this.userCountTtlMs };
      this.usage = entry;
      value.catch((): void => {
        if (this.usage === entry) {
          this.usage = undefined;
        }
      });
    }
    const usage = await this.usage.value;
    return { ...usage, users: { ...usage.users, total }};
  }

  /** The number of accounts, listed at most once per TTL (concurrent requests share one listing; failures are not kept). */
  private async countUsers(): Promise<number> {
    const now = Date.now();
    if (this.userCount && this.userCount.expires > now) {
      return this.userCount.value;
    }
    const value = this.accountStore.list().then((usernames): number => usernames.length);
    const entry = { value, expires: now + this.userCountTtlMs };
    this.userCount = entry;
    value.catch((): void => {
      if (this.userCount === entry) {
        this.userCount = undefined;
      }
    });
    return value;
  }
}
