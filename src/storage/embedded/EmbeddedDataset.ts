import { defaultGraph, namedNode } from 'oxigraph';
import type { Store } from 'oxigraph';
import type { WalWriter } from '../wal/WalWriter';
import type { DatasetCompactor } from './DatasetCompactor';
import type { DatasetOperation, GraphTarget } from './DatasetOperation';
import { DatasetOperationApplier } from './DatasetOperationApplier';
import type { DatasetOperationCodec } from './DatasetOperationCodec';
import { EngineHealth } from './EngineHealth';
import { InvalidOperationError } from './InvalidOperationError';
import type { LiveStore } from './LiveStore';
import { StoreUnavailableError } from './StoreUnavailableError';
import { messageOf } from '../../util/Errors';

/** Explicit RDF dataset of a query (SPARQL protocol default-graph-uri / named-graph-uri). */
export interface QueryDatasetOverride {
  readonly defaultGraphIris?: readonly string[];
  readonly namedGraphIris?: readonly string[];
}

/** The durability side of a dataset; absent for in-memory (`mem`) datasets. */
export interface DatasetDurability {
  readonly writer: WalWriter;
  readonly compactor: DatasetCompactor;
  readonly operationCodec: DatasetOperationCodec;
}

type QueryOptions = NonNullable<Parameters<Store['query']>[1]>;

/**
 * One Oxigraph store plus (optionally) its durability. Writes are applied to the
 * store first, which validates them atomically, then logged; the returned promise
 * resolves only after the log record is fsynced. A rejected write is never logged.
 *
 * Readers may see a write before it is acknowledged (between apply and fsync);
 * after a crash such a write may be gone, exactly as with any unacknowledged write.
 */
export class EmbeddedDataset {
  /** Reused per results format: queries are hot, their options never change. */
  private readonly unionQueryOptions = new Map<string, QueryOptions>();
  private closed = false;

  public constructor(
    private readonly live: LiveStore,
    private readonly durability: DatasetDurability | undefined,
    /** Shared by every dataset of the engine (one WebAssembly instance per thread). */
    private readonly health: EngineHealth = new EngineHealth(),
  ) {}

  public get durable(): boolean {
    return this.durability !== undefined;
  }

  /** Number of quads (counted: slow on a large store). */
  public get size(): number {
    return this.live.store.size;
  }

  /** The store serving now; a rebuild replaces it (see LiveStore). */
  private get store(): Store {
    return this.live.store;
  }

  /**
   * Runs a query and returns it serialized by Oxigraph in `resultsFormat` (a media
   * type). The default graph is the union of all graphs, unless `override` says otherwise.
   */
  public query(sparql: string, resultsFormat: string, override?: QueryDatasetOverride): string {
    let options = override ? this.explicitDatasetOptions(resultsFormat, override) : this.unionQueryOptions.get(resultsFormat);
    if (!options) {
      options = { results_format: resultsFormat, use_default_graph_as_union: true };
      this.unionQueryOptions.set(resultsFormat, options);
    }
    const chosen = options;
    try {
      return this.health.guard((): string => this.store.query(sparql, chosen) as string);
    } catch (error: unknown) {
      throw this.clientError(error);
    }
  }

  public hasNamedGraph(iri: string): boolean {
    if (!DatasetOperationApplier.isSafeIri(iri)) {
      return false;
    }
    return this.health.guard((): boolean => this.store.query(`ASK { GRAPH <${iri}> {} }`) as boolean);
  }

  /** Serializes a graph (triple formats) or the whole dataset (quad formats). */
  public serialize(target: GraphTarget, format: string): string {
    try {
      return this.health.guard((): string => {
        if (target.kind === 'dataset') {
          return this.store.dump({ format });
        }
        return this.store.dump({
          format,
          from_graph_name: target.kind === 'named' ? namedNode(target.iri) : defaultGraph(),
        });
      });
    } catch (error: unknown) {
      throw this.clientError(error);
    }
  }

  public update(sparql: string): Promise<void> {
    return this.apply({ kind: 'update', sparql });
  }

  /** Applies a write and resolves once it is durable. */
  public async apply(operation: DatasetOperation): Promise<void> {
    if (this.closed) {
      throw new StoreUnavailableError('Dataset is closed');
    }
    const durability = this.durability;
    if (durability?.writer.failed) {
      // Refuse before applying, so the store does not drift further from the disk.
      throw new StoreUnavailableError(`Dataset is read-only after a log write failure: ${durability.writer.failed.message}`);
    }
    try {
      this.health.guard((): void => this.live.apply(operation));
    } catch (error: unknown) {
      // Never logged: an engine fault may have left this write half applied, and the rebuild
      // from the log must not replay it.
      throw this.clientError(error);
    }
    if (!durability) {
      return;
    }
    const durable = durability.writer.append(durability.operationCodec.encode(operation));
    durability.compactor.recordAppended();
    durability.compactor.maybeStart();
    try {
      await durable;
    } catch (error: unknown) {
      throw new StoreUnavailableError(messageOf(error));
    }
  }

  /** Compacts now; a no-op for in-memory datasets. */
  public async compact(): Promise<void> {
    await this.durability?.compactor.compact();
  }

  /** Resolves when every write accepted so far is durable. */
  public async flush(): Promise<void> {
    await this.durability?.writer.flush();
  }

  /**
   * Stops taking writes and closes the log once every accepted write is durable.
   * @param compact - fold the log into a snapshot first (see CompactionThresholds.atCloseBytes),
   *   so the next start replays nothing; not worth it for a dataset about to be deleted
   */
  public async close(compact = true): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    if (this.durability) {
      await (compact ? this.durability.compactor.compactAtClose() : this.durability.compactor.whenIdle());
      await this.durability.writer.close();
    }
  }

  /** The client's input was wrong (400), unless the engine failed (503). */
  private clientError(error: unknown): Error {
    return error instanceof StoreUnavailableError ? error : new InvalidOperationError(messageOf(error));
  }

  private explicitDatasetOptions(resultsFormat: string, override: QueryDatasetOverride): QueryOptions {
    const options: QueryOptions = { results_format: resultsFormat };
    if (override.defaultGraphIris && override.defaultGraphIris.length > 0) {
      options.default_graph = override.defaultGraphIris.map((iri): ReturnType<typeof namedNode> => namedNode(iri));
    } else {
      options.use_default_graph_as_union = true;
    }
    if (override.namedGraphIris && override.namedGraphIris.length > 0) {
      options.named_graphs = override.namedGraphIris.map((iri): ReturnType<typeof namedNode> => namedNode(iri));
    }
    return options;
  }
}
