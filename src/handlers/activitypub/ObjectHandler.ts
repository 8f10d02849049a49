import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import type { Json } from '../../plugins/activitypub/ActivityJson';
import type { ObjectThreads } from '../../plugins/activitypub/ObjectThreads';
import { ActivityDocumentHandler } from './ActivityDocumentHandler';
import type { Operation } from '../http/Operation';

/**
 * This server's activities and objects (`/activities/<id>`, `/objects/<id>`) for ActivityPub peers
 * (see ActivityDocumentHandler). Turtle and Fedpod's JSON-LD context stay with LDP.
 */
export class ObjectHandler extends ActivityDocumentHandler {
  private readonly prefixes: string[];

  private readonly objects: string;

  /**
   * @param threads - When given, objects name their `replies` collection and embed the totals of
   *   their `likes` and `shares` (as Mastodon serves them).
   */
  public constructor(baseUrl: string, activities: ActivityRepository, private readonly threads?: ObjectThreads) {
    super(activities);
    const urls = new ActorUrls(baseUrl);
    this.objects = urls.url('objects');
    this.prefixes = [ new URL(urls.url('activities')).pathname, new URL(this.objects).pathname ];
  }

  protected override async completed(document: Json, iri: string): Promise<Json> {
    if (!this.threads || !iri.startsWith(this.objects)) {
      return document;
    }
    const [ likes, shares ] = await Promise.all([ this.threads.reactionCount(iri, 'likes'), this.threads.reactionCount(iri, 'shares') ]);
    return { ...document, replies: `${iri}/replies`,
      likes: { id: `${iri}/likes`, type: 'OrderedCollection', totalItems: likes },
      shares: { id: `${iri}/shares`, type: 'OrderedCollection', totalItems: shares }};
  }

  protected target({ target: { path, iri }}: Operation): string | undefined {
    return this.prefixes.some((prefix): boolean => path.startsWith(prefix) && path.length > prefix.length &&
      !path.slice(prefix.length).includes('/')) ? iri : undefined;
  }
}
