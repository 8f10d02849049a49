import { Store } from 'oxigraph';
import type { DatasetOperation } from './DatasetOperation';
import type { DatasetOperationApplier } from './DatasetOperationApplier';
import { EngineHealth } from './EngineHealth';
import { SlicedQuadLoader } from './SlicedQuadLoader';

/** When a dataset's store is rebuilt to shed what removals left in it. */
export interface RebuildPolicy {
  /**
   * Rebuild once this many writes that may remove quads (a PUT or DELETE of a graph, a SPARQL
   * update with DELETE, DROP, CLEAR, MOVE or COPY) were applied since the store was built, and
   * at least one for every QUADS_PER_REMOVAL quads it held then. 0: never.
   */
  readonly afterRemovals: number;
}

/** What a rebuild did and what it cost the thread, for the log. */
export interface RebuildReport {
  readonly quads: number;
  /** Writes applied to the old store while the new one was loaded, then replayed on the new one. */
  readonly replayed: number;
  readonly totalMs: number;
  /** Longest time the thread spent in one slice of the rebuild without serving anything else. */
  readonly longestSliceMs: number;
}

/**
 * A large store is rebuilt once there was one removing write per this many quads, so rebuilding
 * (about 3 s of CPU time per million quads) stays a small share of the writes' own cost.
 */
export const QUADS_PER_REMOVAL = 50;
/** Writes replayed on the new store per slice while it catches up. */
const REPLAY_BATCH = 64;
/** Catching up stops after this many slices: the rest is replayed in the final, swapping one. */
const MAX_CATCH_UP_SLICES = 200;

const WRITE_KEYWORDS = /\b(?:DELETE|DROP|CLEAR|MOVE|COPY)\b/iu;

const nextTurn = async(): Promise<void> => new Promise((resolve): void => {
  setImmediate(resolve);
});

/**
 * The Oxigraph store a dataset currently reads and writes, and its replacement by a fresh copy.
 *
 * Oxigraph's in-memory store keeps every removed quad as a dead version until the store is
 * dropped, so memory and the cost of lookups in a graph grow with each overwrite and delete,
 * though the data does not (20,000 overwrites of a 20-quad graph made a query of that graph 400
 * times slower). A rebuild loads a dump of the store into a new one, slice by slice while the old
 * one keeps serving, replays the writes applied meanwhile, and swaps the new store in within one
 * synchronous slice: no read ever sees a half-built store and no write is lost. It changes
 * nothing on disk, so crash safety is that of the snapshot and log alone.
 *
 * Like a restart, a rebuild forgets named graphs that hold no quads (N-Quads cannot express them).
 */
export class LiveStore {
  private current: Store;
  private removalCount = 0;
  private retryAfterRemovals = 0;
  /** Writes applied since the dump a rebuild loads; set only while one runs. */
  private backlog: DatasetOperation[] | undefined;

  /**
   * @param quads - how many quads `store` holds (for the rebuild threshold; its `size` is
   *   a full count, too slow to ask on every write)
   */
  public constructor(
    store: Store,
    private readonly applier: DatasetOperationApplier,
    private readonly policy: RebuildPolicy = { afterRemovals: 0 },
    private quads = 0,
    private readonly health: EngineHealth = new EngineHealth(),
    private readonly loader = new SlicedQuadLoader(),
  ) {
    this.current = store;
  }

  public get store(): Store {
    return this.current;
  }

  /** Removing writes applied since the current store was built (see RebuildPolicy). */
  public get removals(): number {
    return this.removalCount;
  }

  public get rebuilding(): boolean {
    return this.backlog !== undefined;
  }

  /** Applies a write to the current store; throws, changing nothing, if it is refused. */
  public apply(operation: DatasetOperation): void {
    this.applier.apply(this.current, operation);
    if (LiveStore.mayRemove(operation)) {
      this.removalCount += 1;
    }
    this.backlog?.push(operation);
  }

  public rebuildDue(): boolean {
    const minimum = this.policy.afterRemovals;
    if (minimum <= 0 || this.backlog) {
      return false;
    }
    return this.removalCount >= Math.max(minimum, this.quads / QUADS_PER_REMOVAL, this.retryAfterRemovals);
  }

  /**
   * Replaces the store by a new one holding `dump`, which must be a dump of the current store
   * taken in the same synchronous tick as this call: writes are recorded from here on. Rejects,
   * keeping the current store, if the new one cannot be built (the next try comes after as many
   * removals again).
   */
  public async rebuildFrom(dump: readonly string[]): Promise<RebuildReport> {
    if (this.backlog) {
      throw new Error('A rebuild of this store is under way');
    }
    const backlog: DatasetOperation[] = [];
    this.backlog = backlog;
    const removalsInDump = this.removalCount;
    const started = performance.now();
    let longestSliceMs = 0;
    const runSlice = async(work: () => void): Promise<void> => {
      const sliceStart = performance.now();
      // A trap while loading breaks the engine for every dataset of the thread: report it.
      this.health.guard(work);
      longestSliceMs = Math.max(longestSliceMs, performance.now() - sliceStart);
      await nextTurn();
    };
    let fresh: Store | undefined;
    try {
      fresh = new Store();
      const built = fresh;
      const quads = await this.loader.load(built, dump, runSlice);
      let replayed = 0;
      for (let slice = 0; backlog.length > REPLAY_BATCH && slice < MAX_CATCH_UP_SLICES; slice++) {
        await runSlice((): void => {
          const batch = backlog.splice(0, REPLAY_BATCH);
          this.replay(built, batch);
          replayed += batch.length;
        });
      }
      // The swap: the last writes and the switch in one slice, so none falls in between.
      await runSlice((): void => {
        const rest = backlog.splice(0);
        this.replay(built, rest);
        replayed += rest.length;
        const old = this.current;
        this.current = built;
        fresh = undefined;
        // In a turn of its own: dropping 900,000 quads takes half a second.
        setImmediate((): void => LiveStore.release(old));
        this.backlog = undefined;
        this.removalCount -= removalsInDump;
        this.retryAfterRemovals = 0;
        // Close enough: the writes replayed add and remove about as much as they count.
        this.quads = quads;
      });
      return { quads, replayed, totalMs: performance.now() - started, longestSliceMs };
    } catch (error: unknown) {
      this.backlog = undefined;
      if (fresh) {
        LiveStore.release(fresh);
      }
      this.retryAfterRemovals = this.removalCount + Math.max(this.policy.afterRemovals, this.quads / QUADS_PER_REMOVAL);
      throw error;
    }
  }

  /**
   * Writes the old store accepted must be accepted by the new one, or the two would differ;
   * where one is not (it named an empty graph the dump could not carry), the rebuild is given up.
   */
  private replay(fresh: Store, operations: readonly DatasetOperation[]): void {
    for (const operation of operations) {
      try {
        this.applier.apply(fresh, operation);
      } catch (error: unknown) {
        if (EngineHealth.isEngineFault(error)) {
          throw error;
        }
        throw new Error(`A write the old store accepted failed on the rebuilt one, which is dropped: ${String(error)}`);
      }
    }
  }

  /**
   * Gives a store's WebAssembly memory back now. Left to the garbage collector, which runs seldom
   * on the store's thread, old stores piled up: over 60,000 overwrites of one document with a
   * rebuild every 1,000, memory kept growing (135 to 187 MB) where freeing them levelled off at
   * about 160 MB. Every read and write asks for the current store, so none holds the old one.
   */
  private static release(store: Store): void {
    (store as Store & { free?: () => void }).free?.();
  }

  private static mayRemove(operation: DatasetOperation): boolean {
    return operation.kind === 'graphReplace' || operation.kind === 'graphDrop' ||
      (operation.kind === 'update' && WRITE_KEYWORDS.test(operation.sparql));
  }
}
