import type { IncomingMessage } from 'node:http';
import type { Operation } from '../../../../src/handlers/http/Operation';
import type { ActivityRepository } from '../../../../src/plugins/activitypub/ActivityRepository';
import type { Json } from '../../../../src/plugins/activitypub/ActivityJson';
import type { OutboxService, PostedActivity } from '../../../../src/plugins/activitypub/outbound/OutboxService';
import type { StoredResource } from '../../../../src/storage/ResourceGraphs';

/**
 * The documents an ActivityRepository would read, in a Map; records each read with whether the
 * access step's prefetched resource came along. Each read gives a fresh copy, as the store does.
 */
export class DocumentsStandIn {
  public readonly documents = new Map<string, Json>();
  public readonly reads: { iri: string; prefetched?: StoredResource }[] = [];

  public repository(): ActivityRepository {
    return {
      read: async(iri: string, prefetched?: StoredResource): Promise<Json | undefined> => {
        this.reads.push({ iri, prefetched });
        const document = this.documents.get(iri);
        return document && structuredClone(document);
      },
      readMany: async(iris: readonly string[]): Promise<Map<string, Json>> => new Map(iris
        .filter((iri): boolean => this.documents.has(iri))
        .map((iri): [string, Json] => [ iri, structuredClone(this.documents.get(iri)!) ])),
    } as unknown as ActivityRepository;
  }
}

/** The test header that names the agent a request is made as, in place of the pipeline's authentication. */
export const AS_USER = 'x-test-user';

/** The username a request names in AS_USER, if any. */
export function testUser(request: IncomingMessage): string | undefined {
  const value = request.headers[AS_USER];
  return typeof value === 'string' ? value : undefined;
}

/** An OutboxService that records what is posted and answers it back with a minted id, or fails as told. */
export class OutboxStandIn {
  public readonly posted: { username: string; body: unknown }[] = [];
  public failWith?: Error;

  public service(): OutboxService {
    return {
      post: async(username: string, body: unknown): Promise<PostedActivity> => {
        if (this.failWith) {
          throw this.failWith;
        }
        this.posted.push({ username, body });
        const id = `https://pod.example/activities/${this.posted.length}`;
        return { id, activity: { ...body as Json, id }};
      },
    } as unknown as OutboxService;
  }
}

/** Sets the agent named by AS_USER on a request's operation (a local user of https://pod.example/), as the pipeline would. */
export function agentFromTestHeader(request: IncomingMessage, operation: Operation): void {
  const username = testUser(request);
  if (username !== undefined) {
    operation.authenticated({ webId: `https://pod.example/actors/${username}`, username });
  }
}
