import { getLoggerFor } from '@solid/community-server';
import type { Json } from '../ActivityJson';
import { idOf, isObject } from '../ActivityJson';
import type { ActorEndpoints } from '../../../storage/ActorEndpointRecords';
import type { ActorEndpointStore } from '../fetch/ActorEndpointStore';
import type { RemoteActorCache } from '../fetch/RemoteActorCache';
import { messageOf } from '../../../util/Errors';

/** The inboxes a fan-out delivers to, and the recipients that could not be resolved now. */
export interface ResolvedInboxes {
  /** Distinct inbox URLs: a recipient's shared inbox when it has one, else its own. */
  inboxes: Set<string>;
  /** Recipients whose actor could not be fetched (their delivery job resolves them again later). */
  unresolved: string[];
}

/** Runs `work` over `items` with at most `limit` at once. */
async function forEachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async(): Promise<void> => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** A recipient's delivery inbox: the shared inbox when the actor has one (one POST per host), else its own. */
export function inboxOf(actor: Json): string | undefined {
  const endpoints = actor.endpoints;
  const shared = isObject(endpoints) ? idOf(endpoints.sharedInbox) : undefined;
  return shared ?? idOf(actor.inbox);
}

/**
 * Finds the inboxes of a fan-out's remote recipients, cheapest source first:
 * 1. actors in this process's cache;
 * 2. endpoints kept in the store (`ActorEndpointStore`), when checked within `maxAgeMs`: every
 *    follower is there from its Follow on, so after a restart, or on another node, a fan-out to
 *    1,000 followers costs one query instead of 1,000 fetches;
 * 3. fetching the rest (`fetchConcurrency` at once), which also keeps their endpoints. An actor that
 *    cannot be fetched now but has older stored endpoints is delivered to there.
 */
export class InboxResolver {
  protected readonly logger = getLoggerFor(this);

  /**
   * @param actors - Remote actors (fetched and cached).
   * @param endpoints - Endpoints kept in the store (none: cached or fetched actors only).
   * @param maxAgeMs - Stored endpoints older than this are checked by fetching the actor again.
   * @param fetchConcurrency - Actor documents fetched at once.
   */
  public constructor(
    private readonly actors: RemoteActorCache,
    private readonly endpoints?: ActorEndpointStore,
    private readonly maxAgeMs = 7 * 24 * 3_600_000,
    private readonly fetchConcurrency = 32,
  ) {}

  public async resolve(recipients: readonly string[]): Promise<ResolvedInboxes> {
    const inboxes = new Set<string>();
    const unresolved: string[] = [];
    const unknown: string[] = [];
    for (const recipient of new Set(recipients)) {
      const cached = this.actors.peekActor(recipient);
      const inbox = cached ? inboxOf(cached) : undefined;
      if (inbox) {
        inboxes.add(inbox);
      } else {
        unknown.push(recipient);
      }
    }
    let stored = new Map<string, ActorEndpoints>();
    if (unknown.length > 0 && this.endpoints) {
      try {
        stored = await this.endpoints.lookup(unknown);
      } catch (error: unknown) {
        this.logger.warn(`Stored inboxes could not be read (${messageOf(error)}); fetching the actors`);
      }
    }
    const toFetch: string[] = [];
    const now = Date.now();
    for (const recipient of unknown) {
      const known = stored.get(recipient);
      if (known && now - known.checkedAt < this.maxAgeMs) {
        inboxes.add(known.sharedInbox ?? known.inbox);
      } else {
        toFetch.push(recipient);
      }
    }
    await forEachConcurrently(toFetch, this.fetchConcurrency, async(recipient): Promise<void> => {
      try {
        const inbox = inboxOf(await this.actors.getActor(recipient));
        if (inbox) {
          inboxes.add(inbox);
        }
      } catch (error: unknown) {
        const known = stored.get(recipient);
        if (known) {
          inboxes.add(known.sharedInbox ?? known.inbox);
          return;
        }
        this.logger.warn(`Could not resolve ${recipient} now (${messageOf(error)}); its delivery job will retry`);
        unresolved.push(recipient);
      }
    });
    return { inboxes, unresolved };
  }

  /** Writes endpoints noted but not yet stored (at shutdown). */
  public async flush(): Promise<void> {
    await this.endpoints?.flush();
  }
}
