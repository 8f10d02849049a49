import { promises as fs, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetFiles } from '../../../../src/storage/embedded/DatasetFiles';
import { LogRecordCodec } from '../../../../src/storage/embedded/LogRecordCodec';
import { UpdateLogWriter } from '../../../../src/storage/embedded/UpdateLogWriter';

async function fileHandlePrototype(): Promise<fs.FileHandle> {
  const probe = await fs.open(__filename, 'r');
  const prototype = Object.getPrototypeOf(probe) as fs.FileHandle;
  await probe.close();
  return prototype;
}

describe('UpdateLogWriter', (): void => {
  const codec = new LogRecordCodec();
  let directory: string;
  let files: DatasetFiles;

  beforeEach((): void => {
    directory = mkdtempSync(join(tmpdir(), 'fedpod-embedded-log-'));
    files = new DatasetFiles(directory);
  });

  afterEach((): void => {
    jest.restoreAllMocks();
    rmSync(directory, { recursive: true, force: true });
  });

  const record = (text: string): Buffer => codec.frame(Buffer.from(text));
  const decodeFile = (sequence: number): string[] =>
    codec.decode(readFileSync(files.logPath(sequence))).payloads.map((payload): string => payload.toString());

  it('groups concurrent appends into few fsyncs and keeps their order', async(): Promise<void> => {
    const datasync = jest.spyOn(await fileHandlePrototype(), 'datasync');
    const writer = await UpdateLogWriter.open(files, 1, 0);
    const texts = Array.from({ length: 200 }, (_, index): string => `record ${index}`);
    await Promise.all(texts.map(async(text): Promise<void> => writer.append(record(text))));
    // One sync for the first record, then the rest arrive while it is running.
    expect(datasync.mock.calls.length).toBeGreaterThan(0);
    expect(datasync.mock.calls.length).toBeLessThanOrEqual(5);
    await writer.close();
    expect(decodeFile(1)).toEqual(texts);
  });

  it('acknowledges an append only after its fsync has completed', async(): Promise<void> => {
    const prototype = await fileHandlePrototype();
    const realDatasync = prototype.datasync;
    // Every datasync waits until released; `syncing` resolves when the append's sync has begun (not
    // after a fixed delay: on a busy machine the writer may take longer to get there).
    let held = false;
    const waiting: (() => void)[] = [];
    let syncStarted: () => void = (): void => undefined;
    const syncing = new Promise<void>((resolve): void => {
      syncStarted = resolve;
    });
    const writer = await UpdateLogWriter.open(files, 1, 0);
    jest.spyOn(prototype, 'datasync').mockImplementation(async function(this: fs.FileHandle): Promise<void> {
      if (held) {
        await new Promise<void>((resolve): void => {
          waiting.push(resolve);
          syncStarted();
        });
      }
      return realDatasync.call(this);
    });
    held = true;
    let acknowledged = false;
    const append = writer.append(record('wait for me')).then((): void => {
      acknowledged = true;
    });
    await syncing;
    await new Promise((resolve): void => {
      setTimeout(resolve, 50);
    });
    expect(acknowledged).toBe(false);
    held = false;
    for (const release of waiting.splice(0)) {
      release();
    }
    await append;
    expect(acknowledged).toBe(true);
    jest.restoreAllMocks();
    await writer.close();
  });

  it('rotates: records before the rotation stay in the old log, later ones go to the next', async(): Promise<void> => {
    const writer = await UpdateLogWriter.open(files, 1, 0);
    const first = writer.append(record('one'));
    const rotation = writer.rotate();
    const second = writer.append(record('two'));
    expect(rotation.coveredSequence).toBe(1);
    expect(writer.sequence).toBe(2);
    await Promise.all([ first, rotation.done, second ]);
    await writer.close();
    expect(decodeFile(1)).toEqual([ 'one' ]);
    expect(decodeFile(2)).toEqual([ 'two' ]);
    // The rotated-away log carries no preallocated zeros.
    expect(statSync(files.logPath(1)).size).toBe(record('one').length);
  });

  it('refuses every later append after a failed fsync', async(): Promise<void> => {
    const writer = await UpdateLogWriter.open(files, 1, 0);
    jest.spyOn(await fileHandlePrototype(), 'datasync').mockRejectedValueOnce(new Error('EIO: simulated'));
    await expect(writer.append(record('lost'))).rejects.toThrow(/EIO: simulated/u);
    expect(writer.failed?.message).toMatch(/EIO/u);
    await expect(writer.append(record('later'))).rejects.toThrow(/unusable/u);
    await writer.close();
  });

  it('preallocates ahead of the appends and trims the zeros on close', async(): Promise<void> => {
    const writer = await UpdateLogWriter.open(files, 1, 0);
    await writer.append(record('x'));
    expect(statSync(files.logPath(1)).size).toBeGreaterThan(1024 * 1024);
    await writer.close();
    expect(statSync(files.logPath(1)).size).toBe(record('x').length);
  });
});
