import { getLoggerFor } from '@solid/community-server';
import { LRUCache } from 'lru-cache';
import type { ActorEndpointRecords, ActorEndpoints } from '../../../storage/ActorEndpointRecords';
import { isValidIri } from '../../../storage/SparqlTerms';
import { messageOf } from '../../../util/Errors';

/** Actors per query or update: keeps each request a few hundred kilobytes at most. */
const CHUNK = 500;

/**
 * The inbox and shared inbox of every remote actor fetched, kept in the triple store (one graph,
 * `urn:fedpod:graph:remote-actors`), so that a fan-out after a restart, or on another node, finds
 * its followers' inboxes with one query instead of fetching a thousand actor documents. Every
 * follower is known here from the moment its Follow arrived: verifying that Follow's signature
 * fetched its actor document.
 *
 * Writes are buffered for `flushDelayMs` and written together (one update for many actors): a cold
 * fan-out fetches hundreds of actors at once. This is a cache of public documents, so a write that
 * fails is logged and dropped; the actors are fetched again when next needed.
 *
 * What was read or noted is also kept in memory for `memoryTtlMs` (at most `memoryEntries` actors),
 * so that a second fan-out to the same followers reads nothing: without it every post to 1,000
 * followers looked up 1,000 actors again, the store's largest work of the post. Another node's
 * newer record for an actor is seen once the memory copy expires; the record is a cache of a
 * public document that may be days old anyway.
 */
export class ActorEndpointStore {
  protected readonly logger = getLoggerFor(this);
  private pending = new Map<string, ActorEndpoints>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private readonly known: LRUCache<string, ActorEndpoints>;

  /**
   * @param records - The stored endpoints.
   * @param flushDelayMs - How long noted endpoints wait to be written with others.
   * @param memoryTtlMs - How long endpoints read or noted are answered from memory.
   * @param memoryEntries - Actors kept in memory at most.
   */
  public constructor(
    private readonly records: ActorEndpointRecords,
    private readonly flushDelayMs = 50,
    memoryTtlMs = 600_000,
    memoryEntries = 100_000,
  ) {
    this.known = new LRUCache({ max: memoryEntries, ttl: memoryTtlMs, ttlAutopurge: false });
  }

  /** Notes the endpoints of a fetched actor (written shortly, with others). Invalid IRIs are ignored. */
  public note(actorId: string, inbox: string, sharedInbox?: string, checkedAt = Date.now()): void {
    if (!isValidIri(actorId) || !isValidIri(inbox) || (sharedInbox !== undefined && !isValidIri(sharedInbox))) {
      return;
    }
    const endpoints = { inbox, sharedInbox, checkedAt };
    this.pending.set(actorId, endpoints);
    this.known.set(actorId, endpoints);
    if (this.pending.size >= CHUNK) {
      void this.flush();
    } else {
      this.timer ??= setTimeout((): void => void this.flush(), this.flushDelayMs);
    }
  }

  /** Writes what was noted. Resolves when the write (and any before it) is done; never rejects. */
  public async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const batch = [ ...this.pending ];
    this.pending = new Map();
    if (batch.length > 0) {
      this.flushing = this.flushing.then(async(): Promise<void> => this.write(batch));
    }
    return this.flushing;
  }

  /** The stored endpoints of those of `actorIds` that are known, by actor id (noted but unwritten ones included). */
  public async lookup(actorIds: readonly string[]): Promise<Map<string, ActorEndpoints>> {
    const found = new Map<string, ActorEndpoints>();
    const wanted: string[] = [];
    for (const id of new Set(actorIds)) {
      const known = this.pending.get(id) ?? this.known.get(id);
      if (known) {
        found.set(id, known);
      } else if (isValidIri(id)) {
        wanted.push(id);
      }
    }
    for (let start = 0; start < wanted.length; start += CHUNK) {
      for (const [ id, endpoints ] of await this.records.lookup(wanted.slice(start, start + CHUNK))) {
        found.set(id, endpoints);
        this.known.set(id, endpoints);
      }
    }
    return found;
  }

  private async write(batch: [string, ActorEndpoints][]): Promise<void> {
    for (let start = 0; start < batch.length; start += CHUNK) {
      const chunk = batch.slice(start, start + CHUNK);
      try {
        await this.records.replace(chunk);
      } catch (error: unknown) {
        this.logger.warn(`Could not keep the endpoints of ${chunk.length} remote actor(s): ${messageOf(error)}`);
      }
    }
  }
}
