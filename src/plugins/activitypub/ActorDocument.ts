import type { ActorUrls } from './ActorUrls';
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
    endpoints: { sharedInbox: urls.sharedInbox(), uploadMedia: urls.url('uploadMedia', { user: username }) },
    manuallyApprovesFollowers: false,
    published,
    publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem },
  };
}
