import type { Store } from 'oxigraph';

/** Runs one slice of work synchronously; resolves once other work (requests, I/O) had its turn. */
export type SliceRunner = (work: () => void) => Promise<void>;

/** About this many characters of N-Quads are loaded per slice (some 2,000 quads: a few milliseconds). */
const SLICE_CHARS = 256 * 1024;
const LOAD_OPTIONS = { format: 'application/n-quads', lenient: true } as const;

/**
 * Loads an N-Quads dump (SnapshotDump's pieces) into a store a slice at a time, so the thread
 * keeps serving between slices. Each `load` call is a parse of its own, and Oxigraph gives the
 * blank nodes of each parse fresh names: a blank node whose statements fell into two slices would
 * become two. So every line naming a blank node (or holding `_:` in a literal, which is harmless)
 * is set aside and loaded in one last call; Fedpod's data has few. Parsing into quads and adding
 * them one by one keeps the names too, but was forty times slower.
 */
export class SlicedQuadLoader {
  public constructor(private readonly sliceChars = SLICE_CHARS) {}

  /** Resolves with the number of quads loaded (lines of the dump). */
  public async load(store: Store, pieces: readonly string[], runSlice: SliceRunner): Promise<number> {
    const withBlankNodes: string[] = [];
    let quads = 0;
    for (const piece of pieces) {
      let start = 0;
      while (start < piece.length) {
        const newline = piece.indexOf('\n', Math.min(start + this.sliceChars, piece.length) - 1);
        const end = newline < 0 ? piece.length : newline + 1;
        const text = piece.slice(start, end);
        start = end;
        await runSlice((): void => {
          quads += SlicedQuadLoader.lines(text);
          if (!text.includes('_:')) {
            store.load(text, LOAD_OPTIONS);
            return;
          }
          const plain: string[] = [];
          for (const line of text.split('\n')) {
            if (line.length > 0) {
              (line.includes('_:') ? withBlankNodes : plain).push(`${line}\n`);
            }
          }
          store.load(plain.join(''), LOAD_OPTIONS);
        });
      }
    }
    if (withBlankNodes.length > 0) {
      await runSlice((): void => {
        store.load(withBlankNodes.join(''), LOAD_OPTIONS);
      });
    }
    return quads;
  }

  private static lines(text: string): number {
    let count = 0;
    for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) {
      count += 1;
    }
    return count;
  }
}
