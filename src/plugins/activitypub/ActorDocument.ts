import type { MintedPath } from '../../util/PathTemplates';
import { fillPath, MINTED_PATHS } from '../../util/PathTemplates';
import type { JsonObject } from '../ldp/Contexts';
import { ACTIVITYSTREAMS_CONTEXT_URL, FEDIVERSE_TERMS, SECURITY_V1_CONTEXT_URL } from '../ldp/Contexts';

const PIM_STORAGE_PROPERTY = 'http://www.w3.org/ns/pim/space#storage';
const SOLID_OIDC_ISSUER_PROPERTY = 'http://www.w3.org/ns/solid/terms#oidcIssuer';

/** The Solid side of an actor, when the setup has it. */
export interface SolidProfile {
  /** The user's storage container (`pim:storage`). */
  storage?: string;
  /** The OpenID provider that logs the user in (`solid:oidcIssuer`): this server. */
  oidcIssuer?: string;
}

/** The collections every actor has, by property name. */
export const ACTOR_COLLECTIONS = [ 'inbox', 'outbox', 'followers', 'following', 'liked', 'featured' ] as const;
export type ActorCollection = typeof ACTOR_COLLECTIONS[number];

/** The URLs the server mints for actors, their collections, objects and activities (from MINTED_PATHS). */
export class ActorUrls {
  public readonly base: string;

  public constructor(baseUrl: string) {
    this.base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  /** A minted URL: the base URL and the path's template, filled in. */
  public url(path: MintedPath, params: Record<string, string> = {}): string {
    return `${this.base}${fillPath(MINTED_PATHS[path].template, params)}`;
  }

  public actor(username: string): string {
    return this.url('actor', { user: username });
  }

  public collection(username: string, name: ActorCollection): string {
    return this.url('collection', { user: username, collection: name });
  }

  public sharedInbox(): string {
    return this.url('sharedInbox');
  }

  /** The username and collection of one of this server's actor collection IRIs (`…/actors/alice/outbox`), if it is one. */
  public collectionOf(iri: string): { username: string; name: ActorCollection } | undefined {
    const match = /^(.*)\/([a-z]+)$/u.exec(iri);
    if (!match || !ACTOR_COLLECTIONS.includes(match[2] as ActorCollection)) {
      return undefined;
    }
    const username = this.usernameOf(match[1]);
    return username ? { username, name: match[2] as ActorCollection } : undefined;
  }

  /** The username of an actor IRI on this server, if it is one. */
  public usernameOf(iri: string): string | undefined {
    const prefix = this.url('actors');
    if (!iri.startsWith(prefix)) {
      return undefined;
    }
    const rest = iri.slice(prefix.length);
    return /^[a-z0-9_][a-z0-9._-]{0,63}$/u.test(rest) ? rest : undefined;
  }
}

/**
 * The actor (type Person) created at signup, as JSON-LD with the ActivityStreams and security contexts:
 * every field of the documented actor table (docs/activitypub.md) plus publicKey.id, endpoints.sharedInbox, url, name,
 * featured and manuallyApprovesFollowers (Mastodon reads these).
 */
export function actorDocument(urls: ActorUrls, username: string, publicKeyPem: string, published: string,
  solid: SolidProfile = {}): JsonObject {
  const id = urls.actor(username);
  // What Solid apps look for in a WebID: where the user's storage is, and who may log them in.
  const solidContext: JsonObject = {
    ...solid.storage ? { storage: { '@id': PIM_STORAGE_PROPERTY, '@type': '@id' }} : {},
    ...solid.oidcIssuer ? { oidcIssuer: { '@id': SOLID_OIDC_ISSUER_PROPERTY, '@type': '@id' }} : {},
  };
  return {
    '@context': [ ACTIVITYSTREAMS_CONTEXT_URL, SECURITY_V1_CONTEXT_URL, FEDIVERSE_TERMS,
      ...Object.keys(solidContext).length > 0 ? [ solidContext ] : [] ],
    ...solid.storage ? { storage: solid.storage } : {},
    ...solid.oidcIssuer ? { oidcIssuer: solid.oidcIssuer } : {},
    id,
    type: 'Person',
    preferredUsername: username,
    name: username,
    url: id,
    inbox: urls.collection(username, 'inbox'),
    outbox: urls.collection(username, 'outbox'),
    followers: urls.collection(username, 'followers'),
    following: urls.collection(username, 'following'),
    liked: urls.collection(username, 'liked'),
    // Pinned posts (Mastodon's profile shows them first).
    featured: urls.collection(username, 'featured'),
    endpoints: { sharedInbox: urls.sharedInbox() },
    manuallyApprovesFollowers: false,
    published,
    publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem },
  };
}
