import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import { createLocalJWKSet } from 'jose';
import { DataFactory, Parser } from 'n3';
import type { OutboundGuard } from '../outbound/OutboundGuard';
import { messageOf } from '../../util/Errors';

const OIDC_ISSUER = 'http://www.w3.org/ns/solid/terms#oidcIssuer';
/** As long as @solid/access-token-verifier keeps what it fetched. */
const KEEP_MS = 120_000;
/** A key set is fetched again for a key it does not have, at most this often. */
const REFETCH_COOLDOWN_MS = 30_000;

interface Kept<T> {
  value: T;
  until: number;
}

/** A few entries kept for a while, each fetched once at a time. */
class Keeper<T> {
  private readonly entries = new Map<string, Kept<T>>();
  private readonly pending = new Map<string, Promise<T>>();

  public constructor(private readonly max: number) {}

  public async get(key: string, load: () => Promise<T>): Promise<T> {
    const kept = this.entries.get(key);
    if (kept && kept.until > Date.now()) {
      return kept.value;
    }
    this.entries.delete(key);
    let running = this.pending.get(key);
    if (!running) {
      running = load().then((value): T => {
        if (this.entries.size >= this.max) {
          this.entries.delete(this.entries.keys().next().value!);
        }
        this.entries.set(key, { value, until: Date.now() + KEEP_MS });
        return value;
      }).finally((): void => {
        this.pending.delete(key);
      });
      this.pending.set(key, running);
    }
    return running;
  }
}

/**
 * What verifying a Solid-OIDC access token needs from other servers, fetched through the server's
 * outbound guard (so a token naming a loopback or private issuer or WebID makes the server fetch
 * nothing there, unless `--allow-private-network`; this server's own issuer and WebIDs are always
 * reached): the issuers a WebID trusts (`solid:oidcIssuer` in its Turtle document) and an issuer's
 * signing keys (its OpenID configuration's `jwks_uri`). Used as @solid/access-token-verifier's
 * caches (`getIssuers`, `getKeySet`); each answer is kept 2 minutes, as that library keeps its own.
 * Anything that cannot be had throws, and the token is refused (401).
 */
export class SolidOidcSources {
  private readonly issuers: Keeper<string[]>;
  private readonly keySets: Keeper<JWTVerifyGetKey>;

  /**
   * @param outbound - The server's outbound guard.
   * @param maxEntries - WebIDs and issuers kept, each.
   */
  public constructor(private readonly outbound: OutboundGuard, maxEntries = 1_000) {
    this.issuers = new Keeper(maxEntries);
    this.keySets = new Keeper(maxEntries);
  }

  /** The issuers the WebID document names for the WebID. */
  public async getIssuers(webId: string): Promise<string[]> {
    return this.issuers.get(webId, async(): Promise<string[]> => {
      const response = await this.outbound.get(webId, { accept: 'text/turtle' });
      if (response.status !== 200) {
        throw new Error(`The WebID document ${webId} answered ${response.status}`);
      }
      let quads;
      try {
        quads = new Parser({ baseIRI: response.url }).parse(response.body.toString('utf8'));
      } catch (error: unknown) {
        throw new Error(`The WebID document ${webId} is not Turtle: ${messageOf(error)}`);
      }
      const subject = DataFactory.namedNode(webId);
      return quads.filter((quad): boolean => quad.subject.equals(subject) && quad.predicate.value === OIDC_ISSUER &&
        quad.graph.termType === 'DefaultGraph').map((quad): string => quad.object.value);
    });
  }

  /** The issuer's signing keys, fetched again (at most every 30 s) when a token names a key they lack. */
  public async getKeySet(issuer: string): Promise<JWTVerifyGetKey> {
    return this.keySets.get(issuer, async(): Promise<JWTVerifyGetKey> => {
      let keys = createLocalJWKSet(await this.fetchKeys(issuer));
      let fetchedAt = Date.now();
      return async(header, token): Promise<Awaited<ReturnType<JWTVerifyGetKey>>> => {
        try {
          return await keys(header, token);
        } catch (error: unknown) {
          if ((error as { code?: unknown }).code !== 'ERR_JWKS_NO_MATCHING_KEY' || Date.now() - fetchedAt < REFETCH_COOLDOWN_MS) {
            throw error;
          }
          fetchedAt = Date.now();
          keys = createLocalJWKSet(await this.fetchKeys(issuer));
          return keys(header, token);
        }
      };
    });
  }

  private async fetchKeys(issuer: string): Promise<JSONWebKeySet> {
    const configurationUrl = `${issuer.replace(/\/$/u, '')}/.well-known/openid-configuration`;
    const configuration = await this.json(configurationUrl, 'The OpenID configuration');
    const jwksUri = configuration.jwks_uri;
    if (typeof jwksUri !== 'string') {
      throw new Error(`The OpenID configuration of ${issuer} names no jwks_uri`);
    }
    const keySet = await this.json(new URL(jwksUri).href, 'The key set');
    if (!Array.isArray(keySet.keys)) {
      throw new Error(`The key set of ${issuer} has no keys`);
    }
    return keySet as unknown as JSONWebKeySet;
  }

  private async json(url: string, what: string): Promise<Record<string, unknown>> {
    const response = await this.outbound.get(url, { accept: 'application/json' });
    if (response.status !== 200) {
      throw new Error(`${what} at ${url} answered ${response.status}`);
    }
    try {
      const parsed = JSON.parse(response.body.toString('utf8')) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        return parsed as Record<string, unknown>;
      }
    } catch {
      // Below.
    }
    throw new Error(`${what} at ${url} is not a JSON object`);
  }
}
