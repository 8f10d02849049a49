import { GroupCommit } from '../../../src/util/GroupCommit';

/** A target that records each write's items, and fails a write that holds an item it refuses. */
function target(refuses: (item: string) => boolean = (): boolean => false): { writes: string[][]; write: (items: string[]) => Promise<void> } {
  const writes: string[][] = [];
  return {
    writes,
    write: async(items: string[]): Promise<void> => {
      writes.push(items);
      await new Promise((resolve): void => {
        setImmediate(resolve);
      });
      const refused = items.find(refuses);
      if (refused) {
        throw new Error(`refused ${refused}`);
      }
    },
  };
}

describe('GroupCommit', (): void => {
  it('writes the items asked for in one turn together, and those asked for meanwhile in the next group', async(): Promise<void> => {
    const { writes, write } = target();
    const groups = new GroupCommit(write);
    const first = [ groups.add('a'), groups.add('b'), groups.add('c') ];
    // Asked for while the first group is being written.
    await new Promise((resolve): void => {
      setImmediate(resolve);
    });
    const second = [ groups.add('d'), groups.add('e') ];
    await Promise.all([ ...first, ...second ]);
    expect(writes).toEqual([[ 'a', 'b', 'c' ], [ 'd', 'e' ]]);
  });

  it('keeps groups within their bounds of items and weight, a heavier item going alone', async(): Promise<void> => {
    const { writes, write } = target();
    const groups = new GroupCommit(write, { maxItems: 3, maxWeight: 5, weigh: (item): number => item.length });
    await Promise.all([ 'a', 'b', 'c', 'd', 'eeeeeeee', 'ff', 'ggg' ].map(async(item): Promise<void> => groups.add(item)));
    expect(writes).toEqual([[ 'a', 'b', 'c' ], [ 'd' ], [ 'eeeeeeee' ], [ 'ff', 'ggg' ]]);
  });

  it('writes the items of a refused group one by one, so that only the bad one fails', async(): Promise<void> => {
    const { writes, write } = target((item): boolean => item === 'bad');
    const groups = new GroupCommit(write);
    const outcomes = await Promise.allSettled([ 'a', 'bad', 'c' ].map(async(item): Promise<void> => groups.add(item)));
    expect(outcomes.map((outcome): string => outcome.status)).toEqual([ 'fulfilled', 'rejected', 'fulfilled' ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('refused bad'));
    expect(writes).toEqual([[ 'a', 'bad', 'c' ], [ 'a' ], [ 'bad' ], [ 'c' ]]);
  });

  it('fails the whole group at once when the failure is the target\'s', async(): Promise<void> => {
    const { writes, write } = target((): boolean => true);
    const groups = new GroupCommit(write, { failsAll: (error): boolean => (error as Error).message.startsWith('refused') });
    const outcomes = await Promise.allSettled([ 'a', 'b' ].map(async(item): Promise<void> => groups.add(item)));
    expect(outcomes.map((outcome): string => outcome.status)).toEqual([ 'rejected', 'rejected' ]);
    expect(writes).toEqual([[ 'a', 'b' ]]);
  });
});
