import { Store } from 'oxigraph';
import type { DatasetOperation } from '../../../../src/storage/embedded/DatasetOperation';
import { DatasetOperationApplier } from '../../../../src/storage/embedded/DatasetOperationApplier';
import { LiveStore } from '../../../../src/storage/embedded/LiveStore';
import { SlicedQuadLoader } from '../../../../src/storage/embedded/SlicedQuadLoader';
import { SnapshotDump } from '../../../../src/storage/embedded/SnapshotDump';

const EX = 'http://example.org/';
const applier = new DatasetOperationApplier();
const dumper = new SnapshotDump();

function update(sparql: string): DatasetOperation {
  return { kind: 'update', sparql };
}

/** Replaces graph `doc<n>` by one holding `value`: what a PUT of a pod document does. */
function overwrite(n: number, value: string): DatasetOperation {
  return update(`DELETE WHERE { GRAPH <${EX}doc${n}> { ?s ?p ?o } }; ` +
    `INSERT DATA { GRAPH <${EX}doc${n}> { <${EX}doc${n}#it> <${EX}value> "${value}" ; <${EX}other> "x${value}" } }`);
}

/** The store's quads without blank nodes, sorted: equal for equal data. */
function linesOf(store: Store): string[] {
  return store.dump({ format: 'application/n-quads' }).split('\n').filter((line): boolean => line.length > 0).sort();
}

function seeded(): Store {
  const store = new Store();
  const lines: string[] = [];
  for (let index = 0; index < 300; index++) {
    lines.push(`<${EX}s${index}> <${EX}p> "value ${index}" <${EX}g${index % 7}> .`);
  }
  store.load(`${lines.join('\n')}\n`, { format: 'application/n-quads' });
  return store;
}

const nextTurn = async(): Promise<void> => new Promise((resolve): void => {
  setImmediate(resolve);
});

describe('LiveStore', (): void => {
  it('counts only writes that may remove quads, and says when a rebuild is due', (): void => {
    const live = new LiveStore(new Store(), applier, { afterRemovals: 3 });
    live.apply(update(`INSERT DATA { <${EX}a> <${EX}p> 1 }`));
    live.apply({ kind: 'graphAdd', target: { kind: 'default' }, format: 'text/turtle', body: Buffer.from(`<${EX}b> <${EX}p> 2 .`) });
    expect(live.removals).toBe(0);
    live.apply(overwrite(1, 'a'));
    live.apply({ kind: 'graphReplace', target: { kind: 'named', iri: `${EX}g` }, format: 'text/turtle', body: Buffer.from(`<${EX}c> <${EX}p> 3 .`) });
    expect(live.rebuildDue()).toBe(false);
    live.apply({ kind: 'graphDrop', target: { kind: 'named', iri: `${EX}g` }});
    expect(live.removals).toBe(3);
    expect(live.rebuildDue()).toBe(true);
    // A refused write counts nothing.
    expect((): void => live.apply(update('DELETE nonsense'))).toThrow();
    expect(live.removals).toBe(3);
  });

  it('is never due with a threshold of 0, and waits for one removal per 50 quads of a large store', (): void => {
    const never = new LiveStore(new Store(), applier);
    for (let index = 0; index < 20; index++) {
      never.apply(overwrite(1, String(index)));
    }
    expect(never.rebuildDue()).toBe(false);
    const large = new LiveStore(new Store(), applier, { afterRemovals: 2 }, 1000);
    for (let index = 0; index < 19; index++) {
      large.apply(overwrite(1, String(index)));
    }
    expect(large.rebuildDue()).toBe(false);
    large.apply(overwrite(1, 'last'));
    expect(large.rebuildDue()).toBe(true);
  });

  it('swaps in a new store with the same quads and resets the count', async(): Promise<void> => {
    const store = seeded();
    const live = new LiveStore(store, applier, { afterRemovals: 5 }, 0, undefined, new SlicedQuadLoader(1000));
    for (let index = 0; index < 10; index++) {
      live.apply(overwrite(index % 3, String(index)));
    }
    const before = linesOf(store);
    const report = await live.rebuildFrom(dumper.of(store));
    expect(live.store).not.toBe(store);
    expect(linesOf(live.store)).toEqual(before);
    // The old store's memory is given back in the next turn, not whenever the garbage collector runs.
    await nextTurn();
    expect((): number => store.size).toThrow();
    expect(report).toMatchObject({ quads: before.length, replayed: 0 });
    expect(live.removals).toBe(0);
    expect(live.rebuilding).toBe(false);
  });

  it('keeps a blank node whole when its statements fall into different slices', async(): Promise<void> => {
    const store = seeded();
    store.update(`INSERT DATA { _:b <${EX}first> "1" . <${EX}filler> <${EX}p> "${'f'.repeat(2000)}" . _:b <${EX}second> "2" }`);
    const size = store.size;
    const live = new LiveStore(store, applier, { afterRemovals: 1 }, 0, undefined, new SlicedQuadLoader(500));
    await live.rebuildFrom(dumper.of(store));
    expect(live.store.query(`ASK { ?b <${EX}first> "1" ; <${EX}second> "2" FILTER isBlank(?b) }`)).toBe(true);
    expect(live.store.size).toBe(size);
  });

  it('serves every write and read from the old store while the new one loads, then holds them all', async(): Promise<void> => {
    const store = seeded();
    // The same writes, applied to a store that is never rebuilt: what the data must be.
    const reference = seeded();
    const live = new LiveStore(store, applier, { afterRemovals: 1 }, 0, undefined, new SlicedQuadLoader(300));
    const write = (operation: DatasetOperation): void => {
      live.apply(operation);
      applier.apply(reference, operation);
    };
    for (let index = 0; index < 20; index++) {
      write(overwrite(index % 4, `before ${index}`));
    }
    let done = false;
    const rebuilt = live.rebuildFrom(dumper.of(live.store)).finally((): void => {
      done = true;
    });
    let duringRebuild = 0;
    for (let index = 0; !done; index++) {
      if (live.rebuilding) {
        duringRebuild += 1;
      }
      // Overwrites, new quads and deletions, in every turn of the loop the rebuild leaves free.
      write(overwrite(index % 4, `during ${index}`));
      write(update(`INSERT DATA { GRAPH <${EX}new> { <${EX}n${index}> <${EX}p> ${index} } }`));
      if (index % 3 === 0) {
        write(update(`DELETE DATA { <${EX}s${index}> <${EX}p> "value ${index}" }`));
      }
      // Reads go to a complete store at every moment: the old one until the swap.
      expect(linesOf(live.store)).toEqual(linesOf(reference));
      await nextTurn();
    }
    const report = await rebuilt;
    expect(live.store).not.toBe(store);
    expect(duringRebuild).toBeGreaterThan(2);
    expect(report.replayed).toBeGreaterThan(0);
    expect(linesOf(live.store)).toEqual(linesOf(reference));
    // Writes after the swap go to the new store.
    write(overwrite(0, 'after'));
    expect(linesOf(live.store)).toEqual(linesOf(reference));
  });

  it('keeps the old store when a write it accepted is refused by the new one', async(): Promise<void> => {
    const store = seeded();
    // An empty named graph: N-Quads cannot carry it, so the new store lacks it.
    store.update(`CREATE GRAPH <${EX}empty>`);
    const live = new LiveStore(store, applier, { afterRemovals: 1 }, 0, undefined, new SlicedQuadLoader(300));
    live.apply(overwrite(1, 'a'));
    const rebuilt = live.rebuildFrom(dumper.of(store));
    // Accepted by the old store, refused by the new one.
    live.apply(update(`DROP GRAPH <${EX}empty>; INSERT DATA { <${EX}kept> <${EX}p> 1 }`));
    await expect(rebuilt).rejects.toThrow('failed on the rebuilt one');
    expect(live.store).toBe(store);
    expect(live.rebuilding).toBe(false);
    expect(live.store.query(`ASK { <${EX}kept> <${EX}p> 1 }`)).toBe(true);
    // Not tried again at once.
    expect(live.rebuildDue()).toBe(false);
  });
});
