import { batchesOf } from '../../../src/cli/QuadBatches';

async function *items(count: number): AsyncGenerator<number> {
  for (let index = 0; index < count; index++) {
    yield index;
  }
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) {
    out.push(item);
  }
  return out;
}

describe('batchesOf', (): void => {
  it('cuts a stream into batches of the size given, the last one shorter, keeping every item in order', async(): Promise<void> => {
    const batches = await collect(batchesOf(items(7), 3));
    expect(batches).toEqual([[ 0, 1, 2 ], [ 3, 4, 5 ], [ 6 ]]);
  });

  it('makes no empty batch for an empty stream or an exact multiple', async(): Promise<void> => {
    expect(await collect(batchesOf(items(0), 3))).toEqual([]);
    expect((await collect(batchesOf(items(6), 3))).map((batch): number => batch.length)).toEqual([ 3, 3 ]);
  });

  it('refuses a size below one', async(): Promise<void> => {
    await expect(collect(batchesOf(items(2), 0))).rejects.toThrow(RangeError);
  });
});
