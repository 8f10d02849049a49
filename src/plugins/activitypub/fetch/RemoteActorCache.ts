import { createPublicKey, type KeyObject } from 'node:crypto';
import type { SigningKey } from '../signatures/SignatureCommon';
import type { ActorEndpointStore } from './ActorEndpointStore';
import { RemoteDocumentError } from './FetchErrors';
import type { RemoteFetcher } from './RemoteFetcher';
import { messageOf } from '../../../util/Errors';

/** A validated remote actor document (the JSON as fetched). */
export type RemoteActor = Record<string, unknown> & { id: string; inbox: string };

export interface RemoteKey {
  keyId: string;
  publicKey: KeyObject;
  /** The id of the actor that owns the key (the actor document lists the key). */
  owner: string;
}

export interface CacheLookupOptions {
  /** Fetch again even though a cached copy exists (at most once per `minRefreshMs` per entry). */
  refresh?: boolean;
}

interface Entry<T> {
  value?: T;
  error?: Error;
  fetchedAt: number;
  expiresAt: number;
}

const ACCEPT = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

/**
 * Remote actors and their public keys, fetched through `RemoteFetcher` and kept in memory for
 * `ttlMs` (keys as ready KeyObjects, so verifying a signature parses no PEM).
 *
 * - `getActor(iri)`: the document must be a JSON object whose `id` is the URL that answered
 *   (after redirects) and that has an `inbox`.
 * - `getKey(keyId)`: fetches the keyId URL without its fragment; either an actor document whose
 *   `publicKey` (object or array) has the key with that id, or a key document (`id`, `owner`,
 *   `publicKeyPem`) whose owner's actor document lists the key back (so a key cannot claim any
 *   owner). The owner is the actor id.
 * - `refresh: true` refetches (a failed signature may mean key rotation), but at most once per
 *   `minRefreshMs` per entry, so bad signatures cannot make us hammer a server.
 * - Concurrent lookups of the same URL share one fetch; failures are remembered for
 *   `negativeTtlMs`; at most `maxEntries` entries per kind (oldest fetched dropped first).
 *
 * Failures throw: `RemoteDocumentError` (bad status or document) or `RemoteFetchError` (network,
 * SSRF). `resolveKey` is `getKey` shaped for `HttpSignatureVerifier.verify`.
 */
export class RemoteActorCache {
  private readonly actors = new Map<string, Entry<RemoteActor>>();
  private readonly keys = new Map<string, Entry<RemoteKey>>();
  private readonly inflight = new Map<string, Promise<unknown>>();
  private instanceKey?: SigningKey;

  /**
   * @param fetcher - Outbound GETs.
   * @param ttlMs - How long a fetched document or key is used.
   * @param minRefreshMs - Least time between two refetches of one entry.
   * @param negativeTtlMs - How long a failed fetch is remembered.
   * @param maxEntries - Most entries kept per kind.
   * @param endpoints - Where the inboxes of fetched actors are kept for later fan-outs (none: not kept).
   */
  public constructor(
    private readonly fetcher: RemoteFetcher,
    private readonly ttlMs = 3_600_000,
    private readonly minRefreshMs = 10_000,
    private readonly negativeTtlMs = 30_000,
    private readonly maxEntries = 10_000,
    private readonly endpoints?: ActorEndpointStore,
  ) {}

  /** Key resolver for `HttpSignatureVerifier.verify`. */
  public readonly resolveKey = (keyId: string, options?: CacheLookupOptions): Promise<RemoteKey> =>
    this.getKey(keyId, options);

  /** Signs later fetches (draft-cavage) with the instance actor's key, for authorized-fetch servers. */
  public useInstanceKey(key: SigningKey | undefined): void {
    this.instanceKey = key;
  }

  public async getActor(iri: string, options: CacheLookupOptions = {}): Promise<RemoteActor> {
    const url = withoutFragment(iri);
    return this.cached(this.actors, 'actor', url, options.refresh === true, async () => {
      const actor = await this.fetchActor(url);
      this.noteEndpoints(actor);
      if (actor.id !== url) {
        // Redirected: the document is also the answer for its own id.
        this.store(this.actors, actor.id, { value: actor });
      }
      return actor;
    });
  }

  public async getKey(keyId: string, options: CacheLookupOptions = {}): Promise<RemoteKey> {
    return this.cached(this.keys, 'key', keyId, options.refresh === true, async () => this.fetchKey(keyId, options));
  }

  /**
   * Any document at `url` (an object a search names), fetched now (signed as the actor fetches are)
   * and not kept; its `id` must be the URL that answered. Throws as getActor does.
   */
  public async fetchDocument(url: string): Promise<Record<string, unknown> & { id: string }> {
    const { json, finalUrl } = await this.fetchObject(withoutFragment(url));
    if (typeof json.id !== 'string' || !sameUrl(json.id, finalUrl)) {
      throw new RemoteDocumentError(`The document at ${finalUrl} has the id ${String(json.id)}`, url);
    }
    return { ...json, id: new URL(json.id).href };
  }

  /** The actor document in memory, if fetched within the TTL; never fetches. */
  public peekActor(iri: string): RemoteActor | undefined {
    // Keys are the URLs looked up: an IRI found as it is needs no parse (a fan-out asks this per follower).
    const entry = (iri.includes('#') ? undefined : this.actors.get(iri)) ?? this.actors.get(withoutFragment(iri));
    return entry !== undefined && Date.now() < entry.expiresAt ? entry.value : undefined;
  }

  /** Drops an actor and its keys (e.g. on an Update or Delete of the actor). */
  public forget(actorId: string): void {
    this.actors.delete(actorId);
    for (const [ keyId, entry ] of this.keys) {
      if (entry.value?.owner === actorId || keyId.split('#')[0] === actorId) {
        this.keys.delete(keyId);
      }
    }
  }

  private async fetchKey(keyId: string, options: CacheLookupOptions): Promise<RemoteKey> {
    const url = withoutFragment(keyId);
    const known = options.refresh === true ? undefined : this.actors.get(url);
    if (known?.value !== undefined && Date.now() < known.expiresAt) {
      // The actor document is already here (e.g. `actor#main-key` after getActor(actor)).
      try {
        return keyOfActor(known.value, keyId, url);
      } catch {
        // Not in the cached copy: fetch.
      }
    }
    const { json, finalUrl } = await this.fetchObject(url);
    if (typeof json.publicKeyPem === 'string' && json.id === keyId) {
      // A key document: { id, owner, publicKeyPem }. The owner must list it back.
      if (withoutFragment(keyId) !== finalUrl) {
        throw new RemoteDocumentError(`The key ${keyId} was served from ${finalUrl}`, url);
      }
      if (typeof json.owner !== 'string') {
        throw new RemoteDocumentError(`The key document ${keyId} has no owner`, url);
      }
      const owner = await this.getActor(json.owner, options);
      if (!listKeys(owner).some((key) => (typeof key === 'string' ? key : key.id) === keyId)) {
        throw new RemoteDocumentError(`The actor ${owner.id} does not list the key ${keyId}`, url);
      }
      return { keyId, owner: owner.id, publicKey: parseKey(json.publicKeyPem, keyId, url) };
    }
    const actor = validateActor(json, finalUrl, url);
    this.store(this.actors, actor.id, { value: actor });
    this.noteEndpoints(actor);
    return keyOfActor(actor, keyId, url);
  }

  /** Keeps where the actor takes deliveries (a follower's signed Follow fetches its document: so every follower is known). */
  private noteEndpoints(actor: RemoteActor): void {
    if (this.endpoints) {
      const endpoints = actor.endpoints;
      const shared = isObject(endpoints) && typeof endpoints.sharedInbox === 'string' &&
        /^https?:\/\//iu.test(endpoints.sharedInbox) ? endpoints.sharedInbox : undefined;
      this.endpoints.note(actor.id, actor.inbox, shared);
    }
  }

  private async fetchActor(url: string): Promise<RemoteActor> {
    const { json, finalUrl } = await this.fetchObject(url);
    return validateActor(json, finalUrl, url);
  }

  private async fetchObject(url: string): Promise<{ json: Record<string, unknown>; finalUrl: string }> {
    const answer = await this.fetcher.getJson(url, {
      accept: ACCEPT,
      ...this.instanceKey === undefined ? {} : { signWith: this.instanceKey },
    });
    if (answer.status < 200 || answer.status > 299) {
      throw new RemoteDocumentError(`${url} answered ${answer.status}`, url, answer.status);
    }
    if (!isObject(answer.json)) {
      throw new RemoteDocumentError(`${url} did not answer with a JSON object`, url);
    }
    return { json: answer.json, finalUrl: answer.finalUrl };
  }

  private async cached<T>(
    map: Map<string, Entry<T>>,
    kind: string,
    key: string,
    refresh: boolean,
    load: () => Promise<T>,
  ): Promise<T> {
    const now = Date.now();
    const entry = map.get(key);
    if (entry !== undefined && now < entry.expiresAt && (!refresh || now - entry.fetchedAt < this.minRefreshMs)) {
      if (entry.error !== undefined) {
        throw entry.error;
      }
      return entry.value!;
    }
    const flightKey = `${kind} ${key}`;
    let pending = this.inflight.get(flightKey) as Promise<T> | undefined;
    if (pending === undefined) {
      pending = load().then(
        (value) => {
          this.store(map, key, { value });
          return value;
        },
        (error: unknown) => {
          this.store(map, key, { error: error as Error });
          throw error;
        },
      ).finally(() => {
        this.inflight.delete(flightKey);
      });
      this.inflight.set(flightKey, pending);
    }
    return pending;
  }

  private store<T>(map: Map<string, Entry<T>>, key: string, result: { value?: T; error?: Error }): void {
    const now = Date.now();
    map.delete(key);
    map.set(key, { ...result, fetchedAt: now, expiresAt: now + (result.error === undefined ? this.ttlMs : this.negativeTtlMs) });
    if (map.size > this.maxEntries) {
      const oldest = map.keys().next();
      if (oldest.done !== true) {
        map.delete(oldest.value);
      }
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutFragment(iri: string): string {
  try {
    const url = new URL(iri);
    url.hash = '';
    return url.href;
  } catch {
    throw new RemoteDocumentError(`Not a URL: ${iri}`, iri);
  }
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

function validateActor(json: Record<string, unknown>, finalUrl: string, url: string): RemoteActor {
  if (typeof json.id !== 'string' || !sameUrl(json.id, finalUrl)) {
    throw new RemoteDocumentError(`The document at ${finalUrl} has the id ${String(json.id)}`, url);
  }
  if (typeof json.inbox !== 'string' || !/^https?:\/\//iu.test(json.inbox)) {
    throw new RemoteDocumentError(`The actor ${json.id} has no inbox`, url);
  }
  return { ...json, id: new URL(json.id).href, inbox: json.inbox };
}

function listKeys(actor: Record<string, unknown>): (string | Record<string, unknown>)[] {
  const keys = Array.isArray(actor.publicKey) ? actor.publicKey : [ actor.publicKey ];
  return keys.filter((key): key is string | Record<string, unknown> => typeof key === 'string' || isObject(key));
}

function keyOfActor(actor: RemoteActor, keyId: string, url: string): RemoteKey {
  const candidates = listKeys(actor).filter((key): key is Record<string, unknown> => typeof key !== 'string');
  let key = candidates.find((candidate) => candidate.id === keyId);
  if (key === undefined && keyId === actor.id && candidates.length === 1) {
    key = candidates[0];
  }
  if (key === undefined) {
    throw new RemoteDocumentError(`The actor ${actor.id} has no key ${keyId}`, url);
  }
  if (key.owner !== undefined && key.owner !== actor.id) {
    throw new RemoteDocumentError(`The key ${keyId} is owned by ${String(key.owner)}, not ${actor.id}`, url);
  }
  if (typeof key.publicKeyPem !== 'string') {
    throw new RemoteDocumentError(`The key ${keyId} has no publicKeyPem`, url);
  }
  return { keyId, owner: actor.id, publicKey: parseKey(key.publicKeyPem, keyId, url) };
}

function parseKey(pem: string, keyId: string, url: string): KeyObject {
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType === undefined) {
      throw new Error('not an asymmetric key');
    }
    return key;
  } catch (error: unknown) {
    throw new RemoteDocumentError(`The key ${keyId} is not a valid public key: ${messageOf(error)}`, url);
  }
}
