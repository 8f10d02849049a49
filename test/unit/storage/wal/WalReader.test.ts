import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WalDirectory } from '../../../../src/storage/wal/WalDirectory';
import { WalFrameCodec } from '../../../../src/storage/wal/WalFrameCodec';
import { WalReader } from '../../../../src/storage/wal/WalReader';
import { WalWriter } from '../../../../src/storage/wal/WalWriter';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures', 'wal');

describe('WalReader', (): void => {
  const codec = new WalFrameCodec();
  let directory: string;
  let files: WalDirectory;
  let path: string;
  const texts = Array.from({ length: 30 }, (_, index): string => `record ${index} ${'x'.repeat(index)}`);
  const whole = Buffer.concat(texts.map((text): Buffer => codec.frame(text)));

  /** Reads `file` in chunks of 7 bytes, so that frames straddle chunks. */
  async function readAll(file: string, accept: (text: string) => boolean = (): boolean => true):
  Promise<{ seen: string[]; result: Awaited<ReturnType<WalReader['read']>> }> {
    const seen: string[] = [];
    const result = await new WalReader(codec, 7).read(file, (payload): boolean => {
      const text = payload.toString('utf8');
      if (!accept(text)) {
        return false;
      }
      seen.push(text);
      return true;
    });
    return { seen, result };
  }

  beforeEach((): void => {
    directory = mkdtempSync(join(tmpdir(), 'fedpod-wal-reader-'));
    files = new WalDirectory(directory, 'log-', '.wal');
    path = files.path(1);
  });

  afterEach((): void => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('reads every record, in order, across chunk boundaries', async(): Promise<void> => {
    writeFileSync(path, whole);
    const { seen, result } = await readAll(path);
    expect(seen).toEqual(texts);
    expect(result).toEqual({ validLength: whole.length, fileLength: whole.length, recordCount: 30, tailIsZero: true });
  });

  it('ignores a torn last frame, which truncation then removes, leaving earlier records intact', async(): Promise<void> => {
    const torn = codec.frame('the append a crash cut short');
    writeFileSync(path, Buffer.concat([ whole, torn.subarray(0, torn.length - 3) ]));
    const { seen, result } = await readAll(path);
    expect(seen).toEqual(texts);
    expect(result).toMatchObject({ validLength: whole.length, fileLength: whole.length + torn.length - 3, tailIsZero: false });

    await files.truncate(1, result.validLength);
    expect(readFileSync(path)).toEqual(whole);
    const writer = await WalWriter.open(files, 1, result.validLength);
    await writer.append('after the cut');
    await writer.close();
    expect((await readAll(path)).seen).toEqual([ ...texts, 'after the cut' ]);
  });

  it('stops at a checksum mismatch and reports the damaged rest as not zero', async(): Promise<void> => {
    const damaged = Buffer.from(whole);
    const tenth = texts.slice(0, 10).reduce((sum, text): number => sum + WalFrameCodec.frameBytes(text.length), 0);
    damaged[tenth + WalFrameCodec.headerBytes + 2] ^= 0x01;
    writeFileSync(path, damaged);
    const { seen, result } = await readAll(path);
    expect(seen).toEqual(texts.slice(0, 10));
    expect(result).toEqual({ validLength: tenth, fileLength: whole.length, recordCount: 10, tailIsZero: false });
  });

  it('takes a zero-filled tail for preallocated space', async(): Promise<void> => {
    writeFileSync(path, whole);
    appendFileSync(path, Buffer.alloc(100));
    const { seen, result } = await readAll(path);
    expect(seen).toEqual(texts);
    expect(result).toEqual({ validLength: whole.length, fileLength: whole.length + 100, recordCount: 30, tailIsZero: true });
  });

  it('ends the valid data before the first record the caller refuses', async(): Promise<void> => {
    writeFileSync(path, whole);
    const { seen, result } = await readAll(path, (text): boolean => !text.startsWith('record 5 '));
    expect(seen).toEqual(texts.slice(0, 5));
    const fifth = texts.slice(0, 5).reduce((sum, text): number => sum + WalFrameCodec.frameBytes(text.length), 0);
    expect(result).toMatchObject({ validLength: fifth, recordCount: 5, tailIsZero: false });
  });

  it('reads whole the files both logs wrote before they shared this module', async(): Promise<void> => {
    for (const [ name, records ] of [[ 'journal-000000000001.log', 9 ], [ 'log-000000000001.wal', 4 ]] as const) {
      const file = join(FIXTURES, name);
      const { result } = await readAll(file);
      expect(result).toEqual({ validLength: statSync(file).size, fileLength: statSync(file).size, recordCount: records, tailIsZero: true });
    }
  });
});
