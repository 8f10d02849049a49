import { TurnBatcher } from '../../../src/util/TurnBatcher';

describe('TurnBatcher', (): void => {
  it('hands on what a callback and its promise jobs added as one batch, in order, and starts a new batch after it', async(): Promise<void> => {
    const batches: number[][] = [];
    const batcher = new TurnBatcher<number>((items): void => {
      batches.push(items);
    });
    await new Promise<void>((resolve): void => {
      setImmediate((): void => {
        batcher.add(1);
        void Promise.resolve().then((): void => batcher.add(2)).then((): void => {
          batcher.add(3);
          expect(batches).toEqual([]);
          resolve();
        });
      });
    });
    await new Promise((resolve): unknown => setImmediate(resolve));
    expect(batches).toEqual([[ 1, 2, 3 ]]);
    batcher.add(4);
    await new Promise((resolve): unknown => setImmediate(resolve));
    expect(batches).toEqual([[ 1, 2, 3 ], [ 4 ]]);
  });

  it('sends at once on flush, and never an empty batch', async(): Promise<void> => {
    const batches: string[][] = [];
    const batcher = new TurnBatcher<string>((items): void => {
      batches.push(items);
    });
    batcher.flush();
    batcher.add('a');
    batcher.flush();
    expect(batches).toEqual([[ 'a' ]]);
    await new Promise((resolve): unknown => setImmediate(resolve));
    expect(batches).toEqual([[ 'a' ]]);
  });
});
