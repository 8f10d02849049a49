import { closeSync, openSync, readSync } from 'node:fs';

/**
 * A file's bytes in chunks of at most `chunkBytes`, read synchronously: for a parser that takes an
 * iterable (Oxigraph's load), without holding the whole file in memory.
 */
export function* fileChunks(path: string, chunkBytes: number): Generator<Uint8Array> {
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkBytes);
      const bytesRead = readSync(fd, chunk, 0, chunk.length, null);
      if (bytesRead === 0) {
        return;
      }
      yield chunk.subarray(0, bytesRead);
    }
  } finally {
    closeSync(fd);
  }
}
