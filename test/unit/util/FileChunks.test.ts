import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileChunks } from '../../../src/util/FileChunks';

describe('fileChunks', (): void => {
  let dir: string;

  beforeEach((): void => {
    dir = mkdtempSync(join(tmpdir(), 'fedpod-chunks-'));
  });

  afterEach((): void => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the whole file in chunks of at most the size asked, and nothing for an empty file', (): void => {
    const path = join(dir, 'data');
    const bytes = Buffer.from(Array.from({ length: 10 }, (unused, index): number => index));
    writeFileSync(path, bytes);
    const chunks = [ ...fileChunks(path, 4) ];
    expect(chunks.map((chunk): number => chunk.length)).toEqual([ 4, 4, 2 ]);
    expect(Buffer.concat(chunks)).toEqual(bytes);
    writeFileSync(path, '');
    expect([ ...fileChunks(path, 4) ]).toEqual([]);
  });
});
