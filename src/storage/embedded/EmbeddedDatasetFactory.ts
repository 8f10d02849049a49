import { basename } from 'node:path';
import { Store } from 'oxigraph';
import { WalFrameCodec } from '../wal/WalFrameCodec';
import { WalReader } from '../wal/WalReader';
import { DatasetCompactor } from './DatasetCompactor';
import { DatasetFiles } from './DatasetFiles';
import { DatasetOperationApplier } from './DatasetOperationApplier';
import { DatasetOperationCodec } from './DatasetOperationCodec';
import { DatasetRecovery } from './DatasetRecovery';
import { EmbeddedDataset } from './EmbeddedDataset';
import { EngineHealth } from './EngineHealth';
import { LiveStore } from './LiveStore';

export interface EmbeddedDatasetFactoryOptions {
  /** Compact once the current update log exceeds this many bytes. */
  readonly compactThresholdBytes: number;
  /** Compact once the current update log holds this many records; default: no limit. */
  readonly compactThresholdRecords?: number;
  /** At a clean close, compact when the current log holds at least this many bytes; default: never. */
  readonly compactAtCloseBytes?: number;
  /** Rebuild a durable dataset's store after this many removing writes (see RebuildPolicy); default 0: never. */
  readonly rebuildAfterRemovals?: number;
  readonly warn: (message: string) => void;
  /** Told what each recovery cost (quads, snapshot load, log replay); default: nobody. */
  readonly inform?: (message: string) => void;
  /** The engine's health, shared by every dataset of this thread; default: a new one. */
  readonly health?: EngineHealth;
}

/** Wires datasets together: recovery for durable ones, a bare store for `mem` ones. */
export class EmbeddedDatasetFactory {
  private readonly applier = new DatasetOperationApplier();
  private readonly operationCodec = new DatasetOperationCodec();
  private readonly reader = new WalReader(new WalFrameCodec());
  private readonly health: EngineHealth;

  public constructor(private readonly options: EmbeddedDatasetFactoryOptions) {
    this.health = options.health ?? new EngineHealth();
  }

  /** Opens (recovering if needed) the durable dataset kept in `directory`. */
  public async openDurable(directory: string): Promise<EmbeddedDataset> {
    const files = new DatasetFiles(directory);
    const recovery = new DatasetRecovery(
      files,
      this.reader,
      this.operationCodec,
      this.applier,
      this.options.warn,
    );
    const { store, writer, replayedRecords, snapshotMs, replayMs } = await recovery.recover();
    const quads = store.size;
    this.options.inform?.(`Dataset ${basename(directory)}: ${quads} quads; snapshot loaded in ${Math.round(snapshotMs)} ms, ` +
      `${replayedRecords} log records replayed in ${Math.round(replayMs)} ms`);
    const thresholds = {
      bytes: this.options.compactThresholdBytes,
      records: this.options.compactThresholdRecords,
      atCloseBytes: this.options.compactAtCloseBytes,
    };
    const live = new LiveStore(store, this.applier, { afterRemovals: this.options.rebuildAfterRemovals ?? 0 }, quads, this.health);
    // A long log left by a crash counts, so the first write folds it into a snapshot.
    const compactor = new DatasetCompactor(live, writer, files, thresholds, this.options.warn, replayedRecords, this.health,
      this.options.inform);
    return new EmbeddedDataset(live, {
      writer,
      compactor,
      operationCodec: this.operationCodec,
    }, this.health);
  }

  public createInMemory(): EmbeddedDataset {
    return new EmbeddedDataset(new LiveStore(new Store(), this.applier), undefined, this.health);
  }
}
