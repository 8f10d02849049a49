import { TurnSharedRead } from '../../../src/util/TurnSharedRead';

describe('TurnSharedRead', (): void => {
  it('makes one read for every caller of a turn, after them all, and a new one in the next turn', async(): Promise<void> => {
    let value = 0;
    const read = jest.fn(async(): Promise<number> => value);
    const shared = new TurnSharedRead(read);
    const first = shared.get();
    value = 1;
    // Asked in the same turn after the change: the shared read is made after both, so both see it.
    const second = shared.get();
    expect(await Promise.all([ first, second ])).toEqual([ 1, 1 ]);
    expect(read).toHaveBeenCalledTimes(1);
    value = 2;
    expect(await shared.get()).toBe(2);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('gives a failed read to every caller of its turn, and reads again afterwards', async(): Promise<void> => {
    let fail = true;
    const shared = new TurnSharedRead(async(): Promise<string> => {
      if (fail) {
        throw new Error('away');
      }
      return 'back';
    });
    const results = await Promise.allSettled([ shared.get(), shared.get() ]);
    expect(results.map((result): string => result.status)).toEqual([ 'rejected', 'rejected' ]);
    fail = false;
    expect(await shared.get()).toBe('back');
  });
});
