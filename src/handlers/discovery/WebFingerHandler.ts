import type { OperationInput } from '../http/Operation';
import type { AccountStore } from '../../plugins/accounts/AccountStore';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import { badRequest, notFound } from '../../util/HttpErrors';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import { allowAnyOrigin, JRD, basePathOf, parseBaseUrl, requireGetOrHead, sendDocument } from './DiscoveryHttp';

/** The link relation of a human-readable profile page. */
export const PROFILE_PAGE_REL = 'http://webfinger.net/rel/profile-page';

/** Usernames as accounts have them (see Account). */
const USERNAME = /^[a-z0-9_][a-z0-9._-]{0,63}$/u;

/** A host as it may appear after the '@' of an acct: URI: no path, query, fragment, userinfo or spaces. */
const ACCT_HOST = /^[^\s/?#@\\]+$/u;

/** The link relation of OStatus's remote follow: other servers' follow buttons fill its `template` with the account. */
export const SUBSCRIBE_REL = 'http://ostatus.org/schema/1.0/subscribe';

export interface WebFingerLink {
  rel: string;
  type?: string;
  href?: string;
  template?: string;
}

/** A JSON Resource Descriptor (RFC 7033 §4.4). */
export interface Jrd {
  subject: string;
  aliases: string[];
  links: WebFingerLink[];
}

/**
 * WebFinger (RFC 7033) at `{base}.well-known/webfinger`, so that other servers (Mastodon etc.) can find
 * the actor of `acct:user@host`.
 *
 * - `resource` is `acct:user@host` (the `acct:` may arrive percent-encoded; the host must be the base
 *   URL's host, port included when it has one, compared case-insensitively) or the actor URL
 *   `{base}actors/<username>` itself.
 * - The answer is `application/jrd+json` whatever the Accept header says: `subject` (the acct: URI),
 *   `aliases` [actor URL] and links `self` (application/activity+json), profile-page (text/html) and
 *   the OStatus `subscribe` template (`{base}authorize_interaction?uri={uri}`, for remote follow buttons).
 *   `rel` parameters, if any, keep only the links with those relations (RFC 7033 §4.3).
 * - Missing, repeated or malformed `resource` → 400; unknown user or another host → 404.
 * - Every answer carries `Access-Control-Allow-Origin` (RFC 7033 §5).
 */
export class WebFingerHandler extends JsonHttpHandler {
  private readonly urls: ActorUrls;
  /** The same, on the WHATWG-normalised base URL (lowercase host, no default port), to match incoming IRIs. */
  private readonly normalizedUrls: ActorUrls;
  private readonly path: string;
  private readonly protocol: string;
  /** The base URL's host, lowercase, with its port when it has a non-default one. */
  private readonly host: string;

  /**
   * @param baseUrl - Public base URL; the endpoint is `{baseUrl}.well-known/webfinger`.
   * @param accountStore - Where the accounts are looked up by username.
   */
  public constructor(baseUrl: string, private readonly accountStore: AccountStore) {
    super();
    const base = parseBaseUrl(baseUrl);
    this.urls = new ActorUrls(baseUrl);
    this.normalizedUrls = new ActorUrls(base.href);
    this.path = `${basePathOf(base)}.well-known/webfinger`;
    this.protocol = base.protocol;
    this.host = base.host;
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    // OPTIONS (CORS preflight) is left to CSS.
    if (operation.target.path !== this.path || request.method === 'OPTIONS') {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    allowAnyOrigin(response);
    requireGetOrHead(request);
    const query = operation.target.query;
    const resources = query.getAll('resource');
    if (resources.length === 0 || resources[0] === '') {
      throw badRequest('The resource parameter is required, e.g. ?resource=acct:user@host.', 'missing_resource');
    }
    if (resources.length > 1) {
      throw badRequest('Give the resource parameter once.', 'invalid_resource');
    }
    const username = await this.findUsername(resources[0]);
    const jrd = this.describe(username);
    const rels = query.getAll('rel');
    if (rels.length > 0) {
      jrd.links = jrd.links.filter((link): boolean => rels.includes(link.rel));
    }
    sendDocument(request, response, `${JRD}; charset=utf-8`, JSON.stringify(jrd), {
      'cache-control': 'public, max-age=300',
    });
  }

  /** The JRD of a local user. */
  private describe(username: string): Jrd {
    const actor = this.urls.actor(username);
    return {
      subject: `acct:${username}@${this.host}`,
      aliases: [ actor ],
      links: [
        { rel: 'self', type: 'application/activity+json', href: actor },
        { rel: PROFILE_PAGE_REL, type: 'text/html', href: actor },
        { rel: SUBSCRIBE_REL, template: `${this.urls.base}authorize_interaction?uri={uri}` },
      ],
    };
  }

  /** The username of the existing account the resource names; 400 when malformed, 404 when not found here. */
  private async findUsername(resource: string): Promise<string> {
    let value = resource;
    if (/^acct%3a/iu.test(value)) {
      try {
        value = decodeURIComponent(value);
      } catch {
        throw badRequest('The resource is not a valid acct: URI.', 'invalid_resource');
      }
    }
    const username = /^acct:/iu.test(value) ? this.usernameOfAcct(value.slice('acct:'.length)) : this.usernameOfIri(value);
    const account = username === undefined ? undefined : await this.accountStore.findByUsername(username);
    if (!account) {
      throw notFound(`No user ${resource} on this server.`);
    }
    return account.username;
  }

  /** `user@host` of an acct: URI (RFC 7565): the username, or undefined when the host is another one. */
  private usernameOfAcct(rest: string): string | undefined {
    const at = rest.lastIndexOf('@');
    const userPart = rest.slice(0, Math.max(at, 0));
    const hostPart = rest.slice(at + 1);
    if (at <= 0 || !ACCT_HOST.test(hostPart)) {
      throw badRequest('The resource must be acct:user@host or an actor URL.', 'invalid_resource');
    }
    let user: string;
    let host: string;
    try {
      user = decodeURIComponent(userPart).toLowerCase();
      host = new URL(`${this.protocol}//${hostPart}/`).host;
    } catch {
      throw badRequest('The resource is not a valid acct: URI.', 'invalid_resource');
    }
    return host === this.host && USERNAME.test(user) ? user : undefined;
  }

  /** The username of an actor URL of this server, or undefined for any other URI; 400 when not a URI. */
  private usernameOfIri(iri: string): string | undefined {
    let parsed: URL;
    try {
      parsed = new URL(iri);
    } catch {
      throw badRequest('The resource must be acct:user@host or an actor URL.', 'invalid_resource');
    }
    return this.urls.usernameOf(iri) ?? this.normalizedUrls.usernameOf(parsed.href);
  }
}
