import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedDatasetFactory } from '../../../../src/storage/embedded/EmbeddedDatasetFactory';
import { EngineHealth } from '../../../../src/storage/embedded/EngineHealth';
import { StoreUnavailableError } from '../../../../src/storage/embedded/StoreUnavailableError';

const RESULTS = 'application/sparql-results+json';

describe('EmbeddedDatasetFactory', (): void => {
  let directory: string;
  let warnings: string[];
  let factory: EmbeddedDatasetFactory;

  beforeEach((): void => {
    directory = mkdtempSync(join(tmpdir(), 'fedpod-factory-'));
    warnings = [];
    factory = new EmbeddedDatasetFactory({ compactThresholdBytes: 1024 * 1024, warn: (message): void => {
      warnings.push(message);
    } });
  });

  afterEach((): void => {
    rmSync(directory, { recursive: true, force: true });
  });

  const count = (answer: string): number => (JSON.parse(answer) as { results: { bindings: unknown[] } }).results.bindings.length;

  it('opens a durable dataset that keeps its writes in its directory across reopening', async(): Promise<void> => {
    const dataset = await factory.openDurable(directory);
    expect(dataset.durable).toBe(true);
    await dataset.update('INSERT DATA { <urn:s> <urn:p> "one" }');
    await dataset.close();
    expect(readdirSync(directory).length).toBeGreaterThan(0);
    const reopened = await factory.openDurable(directory);
    expect(count(reopened.query('SELECT * WHERE { ?s ?p ?o }', RESULTS))).toBe(1);
    await reopened.close();
    expect(warnings).toEqual([]);
  });

  it('says what each recovery cost: quads, snapshot load, records replayed', async(): Promise<void> => {
    const informed: string[] = [];
    const telling = (compactAtCloseBytes?: number): EmbeddedDatasetFactory => new EmbeddedDatasetFactory({
      compactThresholdBytes: 1024 * 1024,
      compactAtCloseBytes,
      warn: (message): void => {
        warnings.push(message);
      },
      inform: (message): void => {
        informed.push(message);
      },
    });
    const path = join(directory, 'ds');
    const dataset = await telling().openDurable(path);
    await dataset.update('INSERT DATA { <urn:s> <urn:p> "one", "two" }');
    await dataset.update('INSERT DATA { <urn:s> <urn:p> "three" }');
    await dataset.close();
    // Replayed from the log; this factory folds the log into a snapshot at close.
    await (await telling(0).openDurable(path)).close();
    await (await telling().openDurable(path)).close();
    expect(informed).toEqual([
      expect.stringMatching(/^Dataset ds: 0 quads; snapshot loaded in \d+ ms, 0 log records replayed in \d+ ms$/u),
      expect.stringMatching(/^Dataset ds: 3 quads; snapshot loaded in \d+ ms, 2 log records replayed in \d+ ms$/u),
      expect.stringMatching(/^Dataset ds: 3 quads; snapshot loaded in \d+ ms, 0 log records replayed in \d+ ms$/u),
    ]);
    expect(warnings).toEqual([]);
  });

  it('makes memory datasets that are not durable and share nothing', async(): Promise<void> => {
    const first = factory.createInMemory();
    const second = factory.createInMemory();
    expect(first.durable).toBe(false);
    await first.update('INSERT DATA { <urn:s> <urn:p> "one" }');
    expect(count(second.query('SELECT * WHERE { ?s ?p ?o }', RESULTS))).toBe(0);
  });

  it('gives every dataset the engine health it was given, so one fault stops them all', async(): Promise<void> => {
    const health = new EngineHealth();
    const shared = new EmbeddedDatasetFactory({ compactThresholdBytes: 1024 * 1024, warn: (): void => undefined, health });
    const memory = shared.createInMemory();
    const durable = await shared.openDurable(directory);
    health.report(new WebAssembly.RuntimeError('trap'));
    expect((): string => memory.query('ASK {}', RESULTS)).toThrow(StoreUnavailableError);
    expect((): string => durable.query('ASK {}', RESULTS)).toThrow(StoreUnavailableError);
    await durable.close();
  });
});
