import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import { ActivityDocumentHandler } from './ActivityDocumentHandler';
import type { Operation } from '../http/Operation';

/**
 * This server's activities and objects (`/activities/<id>`, `/objects/<id>`) for ActivityPub peers
 * (see ActivityDocumentHandler). Turtle and Fedpod's JSON-LD context stay with LDP.
 */
export class ObjectHandler extends ActivityDocumentHandler {
  private readonly prefixes: string[];

  public constructor(baseUrl: string, activities: ActivityRepository) {
    super(activities);
    const urls = new ActorUrls(baseUrl);
    this.prefixes = [ new URL(urls.url('activities')).pathname, new URL(urls.url('objects')).pathname ];
  }

  protected target({ target: { path, iri }}: Operation): string | undefined {
    return this.prefixes.some((prefix): boolean => path.startsWith(prefix) && path.length > prefix.length &&
      !path.slice(prefix.length).includes('/')) ? iri : undefined;
  }
}
