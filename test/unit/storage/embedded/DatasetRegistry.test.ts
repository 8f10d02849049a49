import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetRegistry } from '../../../../src/storage/embedded/DatasetRegistry';
import { EmbeddedDatasetFactory } from '../../../../src/storage/embedded/EmbeddedDatasetFactory';

const RESULTS = 'application/sparql-results+json';
const INSERT = 'INSERT DATA { <urn:s> <urn:p> "kept" }';

describe('DatasetRegistry', (): void => {
  let dataDir: string;
  let warnings: string[];
  let registry: DatasetRegistry;

  function newRegistry(): DatasetRegistry {
    return new DatasetRegistry(dataDir, new EmbeddedDatasetFactory({ compactThresholdBytes: 1024 * 1024, warn: (message): void => {
      warnings.push(message);
    } }));
  }

  /** The values of <urn:s> <urn:p> in the dataset. */
  function values(name: string, of: DatasetRegistry = registry): string[] {
    const answer = JSON.parse(of.get(name)!.query('SELECT ?o WHERE { <urn:s> <urn:p> ?o }', RESULTS)) as
      { results: { bindings: { o: { value: string } }[] } };
    return answer.results.bindings.map((binding): string => binding.o.value);
  }

  beforeEach(async(): Promise<void> => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-registry-'));
    warnings = [];
    registry = newRegistry();
    await registry.open();
  });

  afterEach(async(): Promise<void> => {
    await registry.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([ 'ds', 'A9', 'my.data_set-1', 'x'.repeat(128) ])('takes the dataset name %j', (name): void => {
    expect(DatasetRegistry.isValidName(name)).toBe(true);
  });

  it.each([ '', '.hidden', '-dash', 'a/b', 'a b', 'x'.repeat(129), '$' ])('refuses the dataset name %j', async(name): Promise<void> => {
    expect(DatasetRegistry.isValidName(name)).toBe(false);
    await expect(registry.create(name, 'mem')).rejects.toThrow(`Invalid dataset name: ${name}`);
  });

  it('creates datasets, lists and describes them, and refuses a name taken', async(): Promise<void> => {
    expect(registry.list()).toEqual([]);
    expect(await registry.create('durable', 'tdb2')).toBe(true);
    expect(await registry.create('memory', 'mem')).toBe(true);
    expect(await registry.create('durable', 'mem')).toBe(false);
    expect(registry.list()).toEqual([ { name: 'durable', type: 'tdb2' }, { name: 'memory', type: 'mem' } ]);
    expect(registry.describe('memory')).toEqual({ name: 'memory', type: 'mem' });
    expect(registry.describe('none')).toBeUndefined();
    expect(registry.get('none')).toBeUndefined();
    expect(registry.get('durable')!.durable).toBe(true);
    expect(registry.get('memory')!.durable).toBe(false);
  });

  it('answers "taken" to a second create of a name while the first is under way', async(): Promise<void> => {
    const [ first, second ] = await Promise.all([ registry.create('ds', 'tdb2'), registry.create('ds', 'tdb2') ]);
    expect([ first, second ]).toEqual([ true, false ]);
  });

  it('persists the list, bringing durable data back and memory datasets back empty', async(): Promise<void> => {
    await registry.create('durable', 'tdb2');
    await registry.create('memory', 'mem');
    await registry.get('durable')!.update(INSERT);
    await registry.get('memory')!.update(INSERT);
    await registry.close();
    expect(JSON.parse(readFileSync(join(dataDir, 'datasets.json'), 'utf8'))).toEqual({ version: 1,
      datasets: [ { name: 'durable', type: 'tdb2' }, { name: 'memory', type: 'mem' } ]});
    registry = newRegistry();
    await registry.open();
    expect(registry.list().map((descriptor): string => descriptor.name)).toEqual([ 'durable', 'memory' ]);
    expect(values('durable')).toEqual([ 'kept' ]);
    expect(values('memory')).toEqual([]);
  });

  it('deletes a dataset with its files, for good', async(): Promise<void> => {
    await registry.create('gone', 'tdb2');
    await registry.get('gone')!.update(INSERT);
    expect(existsSync(join(dataDir, 'datasets', 'gone'))).toBe(true);
    expect(await registry.delete('gone')).toBe(true);
    expect(await registry.delete('gone')).toBe(false);
    expect(registry.get('gone')).toBeUndefined();
    expect(existsSync(join(dataDir, 'datasets', 'gone'))).toBe(false);
    await registry.close();
    registry = newRegistry();
    await registry.open();
    expect(registry.list()).toEqual([]);
  });

  it('never brings back old data under a dataset made again with its name', async(): Promise<void> => {
    await registry.create('again', 'tdb2');
    await registry.get('again')!.update(INSERT);
    await registry.delete('again');
    await registry.create('again', 'tdb2');
    expect(values('again')).toEqual([]);
  });

  it('clears directories of datasets no list names (deleted or never finished before a crash)', async(): Promise<void> => {
    await registry.close();
    const orphan = join(dataDir, 'datasets', 'orphan');
    mkdirSync(orphan, { recursive: true });
    writeFileSync(join(orphan, 'leftover'), 'x');
    registry = newRegistry();
    await registry.open();
    expect(existsSync(orphan)).toBe(false);
  });

  it('refuses to open with a list it cannot read', async(): Promise<void> => {
    writeFileSync(join(dataDir, 'datasets.json'), '{ not json');
    await expect(newRegistry().open()).rejects.toThrow(`Cannot read ${join(dataDir, 'datasets.json')}`);
  });
});
