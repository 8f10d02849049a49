import type { Quad } from '@rdfjs/types';
import type { WriterOptions } from 'n3';
import { Writer } from 'n3';

/** Serialises quads with n3's Writer, as a promise of the whole text. */
export async function quadsToText(quads: Iterable<Quad>, options: WriterOptions): Promise<string> {
  const writer = new Writer(options);
  for (const quad of quads) {
    writer.addQuad(quad);
  }
  return new Promise<string>((resolve, reject): void => {
    writer.end((error: Error | null, result: string): void => {
      if (error) {
        reject(error);
      } else {
        resolve(result);
      }
    });
  });
}
