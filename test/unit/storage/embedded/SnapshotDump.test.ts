import { Store } from 'oxigraph';
import { SnapshotDump } from '../../../../src/storage/embedded/SnapshotDump';

const DATA = [
  '<urn:s> <urn:p> "in the default graph" .',
  '<urn:s> <urn:p> "a line\\nbreak and a dot ." <urn:g1> .',
  '<urn:s> <urn:q> _:b1 <urn:g1> .',
  '_:b1 <urn:r> "2"^^<http://www.w3.org/2001/XMLSchema#integer> <urn:g1> .',
  '<urn:t> <urn:p> "x"@en <urn:g2> .',
].join('\n');

/** The store's quads as sorted N-Quads lines, every blank node named _:b (a load gives them new labels). */
function lines(store: Store): string[] {
  return store.dump({ format: 'application/n-quads' }).replace(/_:\w+/gu, '_:b').split('\n').filter(Boolean).sort();
}

describe('SnapshotDump', (): void => {
  it('is the store\'s own dump, in one piece, while it fits in a string', (): void => {
    const store = new Store();
    store.load(DATA, { format: 'application/n-quads' });
    expect(new SnapshotDump().of(store)).toEqual([ store.dump({ format: 'application/n-quads' }) ]);
  });

  it('dumps graph by graph, every quad in its graph, when the whole store is too long for one string', (): void => {
    const store = new Store();
    store.load(DATA, { format: 'application/n-quads' });
    // Stand-in for V8's 512 MiB string limit, which a unit test cannot reach: the whole-store dump fails as it would.
    let wholeDumps = 0;
    const large = new Proxy(store, { get: (target, name): unknown => name === 'dump' ?
      (options: Parameters<Store['dump']>[0]): string => {
        if (!('from_graph_name' in options)) {
          wholeDumps += 1;
          throw new Error('Cannot create a string longer than 0x1fffffe8 characters');
        }
        return target.dump(options);
      } :
      (Reflect.get(target, name) as unknown as (...args: unknown[]) => unknown).bind?.(target) ?? Reflect.get(target, name) });
    const dump = new SnapshotDump();
    const copy = new Store();
    copy.load(dump.of(large).join(''), { format: 'application/n-quads' });
    expect(lines(copy)).toEqual(lines(store));
    expect(copy.size).toBe(5);
    // The next dump does not try the whole store again, and holds the same quads.
    const again = new Store();
    again.load(dump.of(large).join(''), { format: 'application/n-quads' });
    expect(lines(again)).toEqual(lines(store));
    expect(wholeDumps).toBe(1);
  });

  it('passes on any other failure of the dump', (): void => {
    const broken = Object.assign(new Store(), { dump: (): string => {
      throw new Error('unreachable');
    } });
    expect((): string[] => new SnapshotDump().of(broken)).toThrow('unreachable');
  });
});
