import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildStore } from './support/childStore';
import { startChildStore } from './support/childStore';
import { createDataset, select, sparqlUpdate } from './support/storeHttp';

const EX = 'http://example.org/';
const LANES = 10;
/** Unsynced log writes are lost on kill and each fsync takes this long (see support/storeChild.js). */
const SLOW_FSYNC_MS = 20;
// The work is bounded (a few hundred updates, three starts); 10 s on an idle machine, over 60 s was
// seen beside the rest of the suite on 2 cores, so the bound is generous.

function insertItem(laneIndex: number, id: string): string {
  return `INSERT DATA { GRAPH <${EX}graph/${laneIndex}> { <${EX}${id}> <${EX}payload> "${'x'.repeat(200)}" } }`;
}

/** Overwrites the lane's document (what a PUT does) and adds the item: a removing write, for store rebuilds. */
function overwriteWithItem(laneIndex: number, id: string): string {
  return `DELETE WHERE { GRAPH <${EX}doc/${laneIndex}> { ?s ?p ?o } }; INSERT DATA { GRAPH <${EX}doc/${laneIndex}> ` +
    `{ <${EX}doc/${laneIndex}> <${EX}latest> "${id}" } . <${EX}${id}> <${EX}payload> "${'x'.repeat(200)}" }`;
}

/**
 * Drives LANES concurrent clients, each sending INSERT DATA updates one after the
 * other, and kills the store with SIGKILL once `killAfter` updates are acknowledged
 * (while the other lanes still have updates in flight). Returns the acknowledged ids.
 */
async function writeUntilKilled(store: ChildStore, datasetUrl: string, killAfter: number, updateOf = insertItem): Promise<Set<string>> {
  const acknowledged = new Set<string>();
  let killed: Promise<void> | undefined;
  const lane = async(laneIndex: number): Promise<void> => {
    for (let index = 0; !killed; index++) {
      const id = `item-${laneIndex}-${index}`;
      try {
        const response = await sparqlUpdate(datasetUrl, updateOf(laneIndex, id));
        if (response.status === 204) {
          acknowledged.add(id);
        } else {
          throw new Error(`unexpected status ${response.status}: ${response.body}`);
        }
      } catch (error: unknown) {
        if (!killed) {
          throw error;
        }
        return;
      }
      if (acknowledged.size >= killAfter && !killed) {
        killed = store.kill();
      }
    }
  };
  await Promise.all(Array.from({ length: LANES }, async(_, index): Promise<void> => lane(index)));
  await killed;
  return acknowledged;
}

async function storedIds(datasetUrl: string): Promise<Set<string>> {
  const bindings = await select(datasetUrl, `SELECT ?s WHERE { ?s <${EX}payload> ?o }`);
  return new Set(bindings.map((binding): string => binding.s.value.slice(EX.length)));
}

describe('embedded store crash recovery (kill -9 of a store process)', (): void => {
  let dataDir: string;
  let store: ChildStore | undefined;

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-embedded-crash-'));
  });

  afterEach(async(): Promise<void> => {
    await store?.kill();
    store = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged update across a kill -9, and tolerates a torn log tail', async(): Promise<void> => {
    store = await startChildStore({ port: 0, dataDir }, SLOW_FSYNC_MS);
    expect((await createDataset(store.url, 'localData')).status).toBe(200);
    const acknowledged = await writeUntilKilled(store, `${store.url}/localData`, 400);
    expect(acknowledged.size).toBeGreaterThanOrEqual(400);

    // Make the crash uglier: half a record at the end of the newest log.
    const datasetDir = join(dataDir, 'datasets', 'localData');
    const newestLog = readdirSync(datasetDir).filter((name): boolean => name.endsWith('.wal')).sort().at(-1) as string;
    const torn = Buffer.alloc(30, 0x41);
    torn.writeUInt32LE(1000, 0);
    appendFileSync(join(datasetDir, newestLog), torn);

    store = await startChildStore({ port: 0, dataDir }, SLOW_FSYNC_MS);
    const stored = await storedIds(`${store.url}/localData`);
    const missing = [ ...acknowledged ].filter((id): boolean => !stored.has(id));
    expect(missing).toEqual([]);
    expect(store.stderr()).toMatch(/torn tail/u);
    // And it still takes writes.
    expect((await sparqlUpdate(`${store.url}/localData`, `INSERT DATA { <${EX}after> <${EX}payload> "y" }`)).status).toBe(204);
  }, 180_000);

  it('keeps every acknowledged update when killed while compactions run', async(): Promise<void> => {
    // A tiny threshold makes the store compact every few dozen updates, so the kill
    // lands somewhere inside (or between) compactions.
    const options = { port: 0, dataDir, compactThresholdBytes: 8 * 1024 };
    store = await startChildStore(options, SLOW_FSYNC_MS);
    expect((await createDataset(store.url, 'localData')).status).toBe(200);
    let acknowledged = await writeUntilKilled(store, `${store.url}/localData`, 500);
    const datasetDir = join(dataDir, 'datasets', 'localData');
    expect(readdirSync(datasetDir).some((name): boolean => name.startsWith('snapshot-'))).toBe(true);

    store = await startChildStore(options, SLOW_FSYNC_MS);
    let stored = await storedIds(`${store.url}/localData`);
    expect([ ...acknowledged ].filter((id): boolean => !stored.has(id))).toEqual([]);

    // Twice, so the second crash hits a store that itself recovered from one.
    const before = stored;
    acknowledged = await writeUntilKilled(store, `${store.url}/localData`, 300);
    store = await startChildStore(options, SLOW_FSYNC_MS);
    stored = await storedIds(`${store.url}/localData`);
    expect([ ...before ].filter((id): boolean => !stored.has(id))).toEqual([]);
    expect([ ...acknowledged ].filter((id): boolean => !stored.has(id))).toEqual([]);
  }, 180_000);
  it('keeps every acknowledged update when killed amid store rebuilds', async(): Promise<void> => {
    // Every write removes quads; with 10,000 quads stored the store is rebuilt every 200 of them,
    // each rebuild long enough that the kill may land inside one.
    const options = { port: 0, dataDir, rebuildAfterRemovals: 10 };
    store = await startChildStore(options, SLOW_FSYNC_MS);
    expect((await createDataset(store.url, 'localData')).status).toBe(200);
    const filler = Array.from({ length: 10_000 }, (_, index): string => `<${EX}f${index}> <${EX}filler> "${index}" .`);
    expect((await sparqlUpdate(`${store.url}/localData`, `INSERT DATA { ${filler.join(' ')} }`)).status).toBe(204);
    const acknowledged = await writeUntilKilled(store, `${store.url}/localData`, 700, overwriteWithItem);
    expect(store.stderr()).toMatch(/store rebuilt after/u);

    store = await startChildStore(options, SLOW_FSYNC_MS);
    const stored = await storedIds(`${store.url}/localData`);
    expect([ ...acknowledged ].filter((id): boolean => !stored.has(id))).toEqual([]);
    const latest = await select(`${store.url}/localData`, `SELECT ?doc ?id WHERE { GRAPH ?doc { ?doc <${EX}latest> ?id } }`);
    expect(latest).toHaveLength(LANES);
  }, 180_000);
});
