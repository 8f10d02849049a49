import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { EmbeddedDataset } from './EmbeddedDataset';
import type { EmbeddedDatasetFactory } from './EmbeddedDatasetFactory';
import { errnoOf, messageOf } from '../../util/Errors';
import { makeDirectoryDurably } from '../../util/DurableFiles';

/** `tdb2` datasets are durable on disk; `mem` ones come back empty after a restart (as in Fuseki). */
export type DatasetType = 'tdb2' | 'mem';

export interface DatasetDescriptor {
  readonly name: string;
  readonly type: DatasetType;
}

interface RegistryFile {
  readonly version: 1;
  readonly datasets: DatasetDescriptor[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/u;
const REGISTRY_FILE = 'datasets.json';
const DATASETS_DIR = 'datasets';

/**
 * The datasets of one data directory. The list is persisted (write temp, fsync,
 * rename, fsync dir) before a new dataset becomes reachable and before a deleted
 * one's files go, so a crash never leaves an acknowledged dataset unlisted.
 */
export class DatasetRegistry {
  private readonly descriptors = new Map<string, DatasetDescriptor>();
  private readonly opened = new Map<string, EmbeddedDataset>();
  /** Names being created or deleted right now; they answer "exists" to a second create. */
  private readonly busy = new Set<string>();
  private persistChain: Promise<void> = Promise.resolve();

  public constructor(
    private readonly dataDir: string,
    private readonly factory: EmbeddedDatasetFactory,
  ) {}

  public static isValidName(name: string): boolean {
    return NAME.test(name);
  }

  /** Reads the persisted list and opens (recovers) every dataset in it. */
  public async open(): Promise<void> {
    await makeDirectoryDurably(join(this.dataDir, DATASETS_DIR));
    let file: RegistryFile | undefined;
    try {
      file = JSON.parse(await fs.readFile(join(this.dataDir, REGISTRY_FILE), 'utf8')) as RegistryFile;
    } catch (error: unknown) {
      if (errnoOf(error) !== 'ENOENT') {
        throw new Error(`Cannot read ${join(this.dataDir, REGISTRY_FILE)}: ${messageOf(error)}`);
      }
    }
    for (const descriptor of file?.datasets ?? []) {
      this.descriptors.set(descriptor.name, descriptor);
      this.opened.set(descriptor.name, await this.openDataset(descriptor));
    }
    // Directories of datasets deleted (or never finished) before a crash.
    for (const entry of await fs.readdir(join(this.dataDir, DATASETS_DIR))) {
      if (!this.descriptors.has(entry)) {
        await fs.rm(this.directoryOf(entry), { recursive: true, force: true });
      }
    }
  }

  public get(name: string): EmbeddedDataset | undefined {
    return this.opened.get(name);
  }

  public list(): DatasetDescriptor[] {
    return [ ...this.opened.keys() ].map((name): DatasetDescriptor => this.descriptors.get(name) as DatasetDescriptor);
  }

  public describe(name: string): DatasetDescriptor | undefined {
    return this.opened.has(name) ? this.descriptors.get(name) : undefined;
  }

  /** Creates a dataset; resolves false if the name is taken. */
  public async create(name: string, type: DatasetType): Promise<boolean> {
    if (!DatasetRegistry.isValidName(name)) {
      throw new Error(`Invalid dataset name: ${name}`);
    }
    if (this.descriptors.has(name) || this.busy.has(name)) {
      return false;
    }
    this.busy.add(name);
    try {
      const descriptor: DatasetDescriptor = { name, type };
      if (type === 'tdb2') {
        // A leftover directory would otherwise resurrect old data under the new dataset.
        await fs.rm(this.directoryOf(name), { recursive: true, force: true });
      }
      const dataset = await this.openDataset(descriptor);
      this.descriptors.set(name, descriptor);
      try {
        await this.persist();
      } catch (error: unknown) {
        this.descriptors.delete(name);
        await dataset.close();
        throw error;
      }
      this.opened.set(name, dataset);
      return true;
    } finally {
      this.busy.delete(name);
    }
  }

  /** Deletes a dataset and its files; resolves false if there is none. */
  public async delete(name: string): Promise<boolean> {
    const dataset = this.opened.get(name);
    if (!dataset || this.busy.has(name)) {
      return false;
    }
    this.busy.add(name);
    try {
      this.opened.delete(name);
      this.descriptors.delete(name);
      await this.persist();
      // Its files go next: no snapshot to write first.
      await dataset.close(false);
      await fs.rm(this.directoryOf(name), { recursive: true, force: true });
      return true;
    } finally {
      this.busy.delete(name);
    }
  }

  /** Flushes and closes every dataset (clean shutdown). */
  public async close(): Promise<void> {
    const datasets = [ ...this.opened.values() ];
    this.opened.clear();
    await Promise.all(datasets.map(async(dataset): Promise<void> => dataset.close()));
    await this.persistChain;
  }

  private async openDataset(descriptor: DatasetDescriptor): Promise<EmbeddedDataset> {
    return descriptor.type === 'mem' ?
      this.factory.createInMemory() :
      this.factory.openDurable(this.directoryOf(descriptor.name));
  }

  private directoryOf(name: string): string {
    return join(this.dataDir, DATASETS_DIR, name);
  }

  /** Serialised so concurrent creates/deletes never interleave their temp files. */
  private persist(): Promise<void> {
    const next = this.persistChain.then(async(): Promise<void> => this.writeRegistryFile());
    this.persistChain = next.catch((): void => undefined);
    return next;
  }

  private async writeRegistryFile(): Promise<void> {
    const content: RegistryFile = { version: 1, datasets: [ ...this.descriptors.values() ] };
    const finalPath = join(this.dataDir, REGISTRY_FILE);
    const tempPath = `${finalPath}.tmp`;
    const handle = await fs.open(tempPath, 'w');
    try {
      await handle.writeFile(`${JSON.stringify(content, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tempPath, finalPath);
    const directory = await fs.open(this.dataDir, 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  }
}
