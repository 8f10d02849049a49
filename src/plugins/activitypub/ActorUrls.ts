import type { MintedPath } from '../../util/PathTemplates';
import { fillPath, MINTED_PATHS } from '../../util/PathTemplates';

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
