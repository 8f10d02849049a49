/**
 * A query nested a thousand levels deep overflows the stack of Oxigraph's WebAssembly engine, which
 * then traps on every later call ("memory access out of bounds"), for every dataset of its thread.
 * The store must never serve from such an engine (503, not a 400 or a wrong answer), and must come
 * back with every acknowledged write. This file gets its own module registry, so the engine it
 * breaks is its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedStoreWorker } from '../../../../src/storage/embedded';
import { EngineHealth as Health } from '../../../../src/storage/embedded/EngineHealth';
import { StoreUnavailableError as Unavailable } from '../../../../src/storage/embedded/StoreUnavailableError';
import type { EmbeddedDatasetFactory as Factory } from '../../../../src/storage/embedded/EmbeddedDatasetFactory';
import type { EngineHealth } from '../../../../src/storage/embedded/EngineHealth';
import type { StoreUnavailableError } from '../../../../src/storage/embedded/StoreUnavailableError';
import { createDataset, request, select, sparqlUpdate } from './support/storeHttp';

const EX = 'http://example.org/';
const DEEP = `SELECT * WHERE ${'{ '.repeat(1000)}?s ?p ?o${' }'.repeat(1000)}`;
const RESULTS = 'application/sparql-results+json';

interface Engine {
  factory: Factory;
  health: EngineHealth;
  StoreUnavailable: typeof StoreUnavailableError;
}

/** The store's classes with their own copy of the oxigraph module, i.e. a fresh WebAssembly engine. */
function freshEngine(warnings: string[]): Engine {
  let engine: Engine | undefined;
  jest.isolateModules((): void => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { EmbeddedDatasetFactory } = require('../../../../src/storage/embedded/EmbeddedDatasetFactory') as
      { EmbeddedDatasetFactory: typeof Factory };
    const { EngineHealth: Health } = require('../../../../src/storage/embedded/EngineHealth') as { EngineHealth: typeof EngineHealth };
    const { StoreUnavailableError: StoreUnavailable } = require('../../../../src/storage/embedded/StoreUnavailableError') as
      { StoreUnavailableError: typeof StoreUnavailableError };
    /* eslint-enable @typescript-eslint/no-require-imports */
    const health = new Health();
    const factory = new EmbeddedDatasetFactory({ compactThresholdBytes: 64 * 1024 * 1024, warn: (message): void => {
      warnings.push(message);
    }, health });
    engine = { factory, health, StoreUnavailable };
  });
  return engine!;
}

describe('EngineHealth', (): void => {
  let directory: string;

  beforeEach((): void => {
    directory = mkdtempSync(join(tmpdir(), 'fedpod-engine-fault-'));
  });

  afterEach((): void => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('answers 503 from then on, and a fresh engine reloads every acknowledged write', async(): Promise<void> => {
    const warnings: string[] = [];
    const { factory, health, StoreUnavailable } = freshEngine(warnings);
    const faults: Error[] = [];
    health.onFault((error): void => {
      faults.push(error);
    });
    const dataset = await factory.openDurable(directory);
    await dataset.update(`INSERT DATA { GRAPH <${EX}g> { <${EX}s> <${EX}p> "acknowledged" } }`);

    let error: unknown;
    try {
      dataset.query(DEEP, RESULTS);
    } catch (caught: unknown) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect(faults).toHaveLength(1);
    // The overflow surfaces as a WebAssembly trap or, when the JS stack runs out first, as V8's
    // "Maximum call stack size exceeded" RangeError (which depends on the stack left): both are faults.
    const fault = faults[0];
    expect(fault instanceof WebAssembly.RuntimeError || (fault instanceof RangeError && /call stack/iu.test(fault.message)))
      .toBe(true);
    // Even a trivial query is refused now, and so is a write (which is never logged).
    expect((): string => dataset.query('ASK {}', RESULTS)).toThrow(StoreUnavailable);
    await expect(dataset.update(`INSERT DATA { <${EX}s> <${EX}p> "after the fault" }`)).rejects.toThrow(StoreUnavailable);
    await dataset.close();

    const reloaded = await freshEngine(warnings).factory.openDurable(directory);
    const answer = JSON.parse(reloaded.query(`SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } }`, RESULTS)) as
      { results: { bindings: { o: { value: string } }[] } };
    expect(answer.results.bindings.map((binding): string => binding.o.value)).toEqual([ 'acknowledged' ]);
    await reloaded.close();
    expect(warnings).toEqual([]);
  });

  it('restarts the store worker, which reloads its datasets and serves again on the same port', async(): Promise<void> => {
    const warnings: string[] = [];
    const store = await startEmbeddedStoreWorker({ port: 0, dataDir: directory }, (message): void => {
      warnings.push(message);
    });
    try {
      expect((await createDataset(store.url, 'localData')).status).toBe(200);
      expect((await sparqlUpdate(`${store.url}/localData`, `INSERT DATA { <${EX}s> <${EX}p> "kept" }`)).status).toBe(204);
      const deep = await request(`${store.url}/localData/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query', accept: RESULTS },
        body: DEEP,
      });
      expect(deep.status).toBe(503);

      // Until the new worker has reloaded the data, the store answers 503 or refuses connections.
      let bindings: Record<string, { value: string }>[] | undefined;
      for (let attempt = 0; attempt < 600 && !bindings; attempt++) {
        try {
          bindings = await select(`${store.url}/localData`, `SELECT ?o WHERE { <${EX}s> <${EX}p> ?o }`);
        } catch {
          await new Promise((resolve): NodeJS.Timeout => setTimeout(resolve, 100));
        }
      }
      expect(bindings?.map((binding): string => binding.o.value)).toEqual([ 'kept' ]);
      expect(warnings.some((message): boolean => message.includes('Embedded store restarted'))).toBe(true);
    } finally {
      await store.stop();
    }
    expect(await store.exited).toBe(0);
  });
});

describe('EngineHealth (its own bookkeeping)', (): void => {
  it('passes calls and their results through until a fault', (): void => {
    const health = new Health();
    expect(health.guard((): number => 7)).toBe(7);
    expect(health.failed).toBeUndefined();
    expect((): void => health.check()).not.toThrow();
  });

  it('rethrows an error of the input as it is, and stays healthy', (): void => {
    const health = new Health();
    const parseError = new SyntaxError('Unexpected token');
    expect((): never => health.guard((): never => {
      throw parseError;
    })).toThrow(parseError);
    // A RangeError that is no stack overflow is the caller's too.
    expect((): never => health.guard((): never => {
      throw new RangeError('Invalid array length');
    })).toThrow(RangeError);
    expect(health.failed).toBeUndefined();
  });

  it.each([
    [ 'a WebAssembly trap', new WebAssembly.RuntimeError('memory access out of bounds') ],
    [ 'a stack overflow', new RangeError('Maximum call stack size exceeded') ],
  ])('takes %s for a fault: a 503 from then on, told to the listeners once', (what, fault): void => {
    const health = new Health();
    const told: Error[] = [];
    health.onFault((error): void => {
      told.push(error);
    });
    const error = ((): unknown => {
      try {
        return health.guard((): never => {
          throw fault;
        });
      } catch (caught: unknown) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(Unavailable);
    expect((error as Error).message).toBe(`The store engine failed (${fault.message}); its data is being reloaded`);
    expect(health.failed).toBe(fault);
    let ran = false;
    expect((): void => health.guard((): void => {
      ran = true;
    })).toThrow(Unavailable);
    expect(ran).toBe(false);
    health.report(new WebAssembly.RuntimeError('a second trap'));
    expect(told).toEqual([ fault ]);
    expect(health.failed).toBe(fault);
  });

  it('knows an engine fault from other errors', (): void => {
    expect(Health.isEngineFault(new WebAssembly.RuntimeError('unreachable'))).toBe(true);
    expect(Health.isEngineFault(new RangeError('Maximum call stack size exceeded'))).toBe(true);
    expect(Health.isEngineFault(new RangeError('out of range'))).toBe(false);
    expect(Health.isEngineFault(new Error('call stack'))).toBe(false);
    expect(Health.isEngineFault('memory access out of bounds')).toBe(false);
  });
});
