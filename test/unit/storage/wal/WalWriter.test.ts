import { promises as fs, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WalDirectory } from '../../../../src/storage/wal/WalDirectory';
import type { WalFile, WalFileOpener } from '../../../../src/storage/wal/WalFile';
import { WalFrameCodec } from '../../../../src/storage/wal/WalFrameCodec';
import { WalWriter } from '../../../../src/storage/wal/WalWriter';

/** Real files, watched: what was synced, and a way to hold syncs or make them fail. */
interface Disk {
  readonly openFile: WalFileOpener;
  datasyncs: number;
  syncs: number;
  /** Per path: how far the data written before the last completed datasync or sync reaches. */
  readonly durableEnd: Map<string, number>;
  /** While set, each datasync waits for it. */
  hold: Promise<void> | undefined;
  /** Called when a datasync starts waiting for `hold`. */
  onHeld: () => void;
  failNextDatasync: Error | undefined;
  refuseOpen: (path: string) => boolean;
}

function makeDisk(): Disk {
  const disk: Disk = {
    datasyncs: 0,
    syncs: 0,
    durableEnd: new Map(),
    hold: undefined,
    onHeld: (): void => undefined,
    failNextDatasync: undefined,
    refuseOpen: (): boolean => false,
    openFile: async(path, flags): Promise<WalFile> => {
      if (disk.refuseOpen(path)) {
        throw new Error(`ENOSPC: simulated, open '${path}'`);
      }
      const handle = await fs.open(path, flags);
      let writtenEnd = 0;
      return {
        write: async(buffer, offset, length, position): Promise<{ bytesWritten: number }> => {
          const result = await handle.write(buffer, offset, length, position);
          writtenEnd = Math.max(writtenEnd, position + result.bytesWritten);
          return result;
        },
        datasync: async(): Promise<void> => {
          const end = writtenEnd;
          disk.datasyncs += 1;
          if (disk.hold) {
            disk.onHeld();
            await disk.hold;
          }
          const failure = disk.failNextDatasync;
          if (failure) {
            disk.failNextDatasync = undefined;
            throw failure;
          }
          await handle.datasync();
          disk.durableEnd.set(path, Math.max(disk.durableEnd.get(path) ?? 0, end));
        },
        sync: async(): Promise<void> => {
          const end = writtenEnd;
          disk.syncs += 1;
          await handle.sync();
          disk.durableEnd.set(path, Math.max(disk.durableEnd.get(path) ?? 0, end));
        },
        truncate: async(length): Promise<void> => {
          await handle.truncate(length);
          writtenEnd = Math.min(writtenEnd, length);
        },
        close: async(): Promise<void> => handle.close(),
      };
    },
  };
  return disk;
}

/** Holds every datasync from now on; `held` resolves once one waits, `release` lets them all go. */
function holdSyncs(disk: Disk): { held: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  disk.hold = new Promise<void>((resolve): void => {
    release = (): void => {
      disk.hold = undefined;
      resolve();
    };
  });
  const held = new Promise<void>((resolve): void => {
    disk.onHeld = resolve;
  });
  return { held, release };
}

/** Lets every callback that is ready run (no waiting for time to pass). */
async function settle(): Promise<void> {
  await new Promise((resolve): void => {
    setImmediate(resolve);
  });
}

describe('WalWriter', (): void => {
  const codec = new WalFrameCodec();
  let directory: string;
  let files: WalDirectory;
  let disk: Disk;

  const contents = (sequence: number): string[] =>
    codec.decode(readFileSync(files.path(sequence))).payloads.map((payload): string => payload.toString('utf8'));
  const frameLength = (text: string): number => codec.frame(text).length;

  beforeEach((): void => {
    directory = mkdtempSync(join(tmpdir(), 'fedpod-wal-writer-'));
    files = new WalDirectory(directory, 'log-', '.wal');
    disk = makeDisk();
  });

  afterEach((): void => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('shares one fdatasync among the appends that arrive during another, resolving each once durable', async(): Promise<void> => {
    const writer = await WalWriter.open(files, 1, 0, { openFile: disk.openFile });
    const { held, release } = holdSyncs(disk);
    const texts = Array.from({ length: 200 }, (_, index): string => `record ${index}`);
    let end = 0;
    let acknowledged = 0;
    const early: string[] = [];
    const appends = texts.map(async(text): Promise<void> => {
      end += frameLength(text);
      const recordEnd = end;
      await writer.append(text);
      acknowledged += 1;
      if ((disk.durableEnd.get(files.path(1)) ?? 0) < recordEnd) {
        early.push(text);
      }
    });
    // The first append's sync is held; the 199 others queue up behind it.
    await held;
    await settle();
    expect(acknowledged).toBe(0);
    release();
    await Promise.all(appends);
    expect(early).toEqual([]);
    expect(disk.datasyncs).toBe(2);
    await writer.close();
    expect(contents(1)).toEqual(texts);
  });

  it('writes lazy appends with the next sync, or on flush, without a sync of their own', async(): Promise<void> => {
    const writer = await WalWriter.open(files, 1, 0, { openFile: disk.openFile, lazyFlushMs: 60_000 });
    writer.appendLazy('started');
    writer.appendLazy('completed');
    await settle();
    expect(disk.datasyncs).toBe(0);
    await writer.append('added');
    expect(disk.datasyncs).toBe(1);
    expect(contents(1)).toEqual([ 'started', 'completed', 'added' ]);
    writer.appendLazy('failed');
    await writer.flush();
    expect(contents(1)).toEqual([ 'started', 'completed', 'added', 'failed' ]);
    await writer.close();
    writer.appendLazy('dropped once closed');
    expect(contents(1)).toHaveLength(4);
  });

  it('refuses every later append after a failed sync, and says so once', async(): Promise<void> => {
    const warnings: string[] = [];
    const writer = await WalWriter.open(files, 1, 0, {
      openFile: disk.openFile,
      label: 'Test log',
      warn: (message): void => {
        warnings.push(message);
      },
    });
    await writer.append('kept');
    disk.failNextDatasync = new Error('EIO: simulated');
    const lost = [ writer.append('lost 1'), writer.append('lost 2') ];
    await expect(lost[0]).rejects.toThrow(/EIO: simulated/u);
    await expect(lost[1]).rejects.toThrow(/Test log is unusable/u);
    expect(writer.failed?.message).toBe('EIO: simulated');
    await expect(writer.append('later')).rejects.toThrow(/unusable/u);
    await expect(writer.rotate().done).rejects.toThrow(/unusable/u);
    expect(warnings).toHaveLength(1);
    await writer.close();
  });

  it('rotates: earlier records stay in the old log, without its preallocated zeros, later ones go to the next', async(): Promise<void> => {
    const writer = await WalWriter.open(files, 1, 0, { preallocateBytes: 64 * 1024 });
    const first = writer.append('one');
    const rotation = writer.rotate();
    const second = writer.append('two');
    expect(rotation.coveredSequence).toBe(1);
    expect(writer.sequence).toBe(2);
    expect(writer.bytesInCurrentLog).toBe(frameLength('two'));
    await Promise.all([ first, rotation.done, second ]);
    expect(statSync(files.path(1)).size).toBe(frameLength('one'));
    expect(statSync(files.path(2)).size).toBeGreaterThan(64 * 1024);
    await writer.close();
    expect(contents(1)).toEqual([ 'one' ]);
    expect(contents(2)).toEqual([ 'two' ]);
    expect(statSync(files.path(2)).size).toBe(frameLength('two'));
  });

  it('preallocates zeros ahead of the appends and trims them on close', async(): Promise<void> => {
    const writer = await WalWriter.open(files, 1, 0, { openFile: disk.openFile, preallocateBytes: 1024 * 1024 });
    await writer.append('x');
    // The new size was made durable by a full sync before the append's datasync.
    expect(disk.syncs).toBe(1);
    expect(statSync(files.path(1)).size).toBeGreaterThan(1024 * 1024);
    await writer.append('y');
    expect(disk.syncs).toBe(1);
    await writer.close();
    expect(statSync(files.path(1)).size).toBe(frameLength('x') + frameLength('y'));
  });

  it('rewrites: a new log holds the given records in place of all appended before, which are never written', async(): Promise<void> => {
    const writer = await WalWriter.open(files, 1, 0, { openFile: disk.openFile });
    const { held, release } = holdSyncs(disk);
    const first = writer.append('old 1');
    await held;
    // Queued behind the held sync: replaced by the rewrite before being written.
    const replaced = writer.append('old 2');
    const rewritten = writer.rewrite([ 'state a', 'state b' ]);
    const after = writer.append('new 1');
    expect(writer.sequence).toBe(2);
    expect(writer.bytesInCurrentLog).toBe(frameLength('state a') + frameLength('state b') + frameLength('new 1'));
    release();
    await Promise.all([ first, replaced, rewritten, after ]);
    await writer.close();
    expect(readdirSync(directory)).toEqual([ 'log-000000000002.wal' ]);
    expect(contents(2)).toEqual([ 'state a', 'state b', 'new 1' ]);
    expect(statSync(files.path(2)).size).toBe(writer.bytesInCurrentLog);
  });

  it('keeps the current log in charge when a rewrite fails, with the records it was to replace', async(): Promise<void> => {
    const writer = await WalWriter.open(files, 1, 0, { openFile: disk.openFile });
    disk.refuseOpen = (path): boolean => path.endsWith('.tmp');
    const { held, release } = holdSyncs(disk);
    const first = writer.append('a');
    await held;
    const second = writer.append('b');
    const rewritten = writer.rewrite([ 'state' ]);
    // One rewrite at a time: a failed one gives its sequence number back.
    await expect(writer.rewrite([ 'other' ])).rejects.toThrow('under way');
    await expect(writer.rotate().done).rejects.toThrow('under way');
    const third = writer.append('c');
    release();
    await expect(rewritten).rejects.toThrow('ENOSPC: simulated');
    await Promise.all([ first, second, third ]);
    expect(writer.sequence).toBe(1);
    expect(contents(1)).toEqual([ 'a', 'b', 'c' ]);
    expect(writer.bytesInCurrentLog).toBe(statSync(files.path(1)).size);

    disk.refuseOpen = (): boolean => false;
    await writer.rewrite([ 'state' ]);
    await writer.close();
    expect(readdirSync(directory)).toEqual([ 'log-000000000002.wal' ]);
    expect(contents(2)).toEqual([ 'state' ]);
  });

  it('writes what was appended before close and refuses what comes after', async(): Promise<void> => {
    const writer = await WalWriter.open(files, 1, 0, { label: 'Test log' });
    const pending = writer.append('before');
    const closed = writer.close();
    await expect(writer.append('after')).rejects.toThrow('Test log is closed');
    await pending;
    await closed;
    expect(contents(1)).toEqual([ 'before' ]);
  });

  it('appends after the valid records of an existing log, created durably when absent', async(): Promise<void> => {
    const created = await WalWriter.open(files, 3, 0);
    await created.append('first');
    await created.close();
    const reopened = await WalWriter.open(files, 3, frameLength('first'));
    expect(reopened.bytesInCurrentLog).toBe(frameLength('first'));
    await reopened.append('second');
    await reopened.close();
    expect(contents(3)).toEqual([ 'first', 'second' ]);
  });
});
