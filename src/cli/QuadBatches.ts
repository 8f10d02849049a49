/**
 * The items of `source` in arrays of `size` (the last one shorter), as they come: an import holds
 * one batch in memory, never the whole dataset.
 */
export async function *batchesOf<T>(source: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  if (!Number.isInteger(size) || size < 1) {
    throw new RangeError(`A batch holds at least one item (got ${size})`);
  }
  let batch: T[] = [];
  for await (const item of source) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) {
    yield batch;
  }
}
