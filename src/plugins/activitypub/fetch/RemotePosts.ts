import type { Json } from '../ActivityJson';
import { idOf, idsOf, typeOf } from '../ActivityJson';
import type { ActivityRepository } from '../ActivityRepository';
import { PUBLIC_FORMS } from '../ActivityVocabulary';
import type { RemoteActorCache } from './RemoteActorCache';

/** Objects kept as posts (Mastodon's statuses) when fetched. */
export const POST_TYPES = new Set([ 'Note', 'Question', 'Article', 'Page', 'Video', 'Audio', 'Image', 'Event' ]);

/**
 * Posts fetched from other servers on a reader's demand (a search by URL, a thread's missing
 * parts), kept as received objects are: one store path for all of them. A fetched post is kept only
 * when it is public (to or cc Public) and its author is of the server that serves it (who may speak
 * for it); anything else is left alone, so nothing fetched is shown beyond what its addressing says.
 * Fetches go through the outbound guard, signed by the instance actor (RemoteActorCache).
 */
export class RemotePosts {
  public constructor(private readonly actors: RemoteActorCache, private readonly activities: ActivityRepository) {}

  /** Fetches the post at `url` and keeps it; undefined when it is no post to keep. Fetch errors are thrown. */
  public async fetch(url: string): Promise<(Json & { id: string }) | undefined> {
    const document = await this.actors.fetchDocument(url);
    return await this.keep(document) ? document : undefined;
  }

  /** Keeps a fetched document when it is a post to keep (a copy kept before stays); whether it is kept. */
  public async keep(document: Json & { id: string }): Promise<boolean> {
    if (!POST_TYPES.has(typeOf(document) ?? '') || !keepable(document)) {
      return false;
    }
    if (!await this.activities.exists(document.id)) {
      await this.activities.storeRemote(document, new Date(), false, false);
    }
    return true;
  }
}

function keepable(document: Json & { id: string }): boolean {
  const author = idOf(document.attributedTo);
  const addressed = [ ...idsOf(document.to), ...idsOf(document.cc) ];
  return author !== undefined && addressed.some((iri): boolean => PUBLIC_FORMS.has(iri)) && sameOrigin(author, document.id);
}

function sameOrigin(first: string, second: string): boolean {
  try {
    return new URL(first).origin === new URL(second).origin;
  } catch {
    return false;
  }
}
