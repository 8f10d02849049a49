import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from 'oxigraph';
import type { DatasetOperation } from '../../../../src/storage/embedded/DatasetOperation';
import { DatasetFiles } from '../../../../src/storage/embedded/DatasetFiles';
import { DatasetOperationApplier } from '../../../../src/storage/embedded/DatasetOperationApplier';
import { DatasetOperationCodec } from '../../../../src/storage/embedded/DatasetOperationCodec';
import { DatasetRecovery } from '../../../../src/storage/embedded/DatasetRecovery';
import { WalFrameCodec } from '../../../../src/storage/wal/WalFrameCodec';
import { WalReader } from '../../../../src/storage/wal/WalReader';
import { WalWriter } from '../../../../src/storage/wal/WalWriter';

const operations = new DatasetOperationCodec();
const insert = (value: string): DatasetOperation => ({ kind: 'update', sparql: `INSERT DATA { <urn:s> <urn:p> "${value}" }` });

/** The values of <urn:s> <urn:p> in the store, sorted. */
const values = (store: Store): string[] => store.match().map((entry): string => entry.object.value).sort();

describe('DatasetRecovery', (): void => {
  let directory: string;
  let files: DatasetFiles;
  let warnings: string[];

  beforeEach(async(): Promise<void> => {
    directory = join(mkdtempSync(join(tmpdir(), 'fedpod-recovery-')), 'ds');
    files = new DatasetFiles(directory);
    await files.ensureDirectory();
    warnings = [];
  });

  afterEach((): void => {
    rmSync(join(directory, '..'), { recursive: true, force: true });
  });

  function recovery(): DatasetRecovery {
    return new DatasetRecovery(files, new WalReader(new WalFrameCodec()), operations, new DatasetOperationApplier(), (message): void => {
      warnings.push(message);
    });
  }

  /** Writes log `sequence` holding these operations, as the live store would. */
  async function writeLog(sequence: number, logged: DatasetOperation[]): Promise<void> {
    const writer = await WalWriter.open(files.logs, sequence, 0);
    for (const operation of logged) {
      await writer.append(operations.encode(operation));
    }
    await writer.close();
  }

  it('starts an empty directory with an empty store and log 1', async(): Promise<void> => {
    const { store, writer, replayedRecords } = await recovery().recover();
    expect(store.size).toBe(0);
    expect(replayedRecords).toBe(0);
    expect(writer.sequence).toBe(1);
    await writer.close();
    expect(existsSync(files.logPath(1))).toBe(true);
  });

  it('replays every log in order, and appends after the last record', async(): Promise<void> => {
    await writeLog(1, [ insert('a'), insert('b') ]);
    await writeLog(2, [ { kind: 'update', sparql: 'DELETE DATA { <urn:s> <urn:p> "a" }' }, insert('c') ]);
    const { store, writer, replayedRecords } = await recovery().recover();
    expect(values(store)).toEqual([ 'b', 'c' ]);
    expect(replayedRecords).toBe(4);
    expect(writer.sequence).toBe(2);
    await writer.append(operations.encode(insert('d')));
    await writer.close();
    const reopened = await recovery().recover();
    await reopened.writer.close();
    expect(values(reopened.store)).toEqual([ 'b', 'c', 'd' ]);
    expect(warnings).toEqual([]);
  });

  it('loads the newest snapshot and only the logs after it, clearing what it covers', async(): Promise<void> => {
    await writeLog(1, [ insert('old') ]);
    await writeLog(2, [ insert('older') ]);
    await files.writeSnapshot(1, '<urn:s> <urn:p> "stale" .\n');
    await files.writeSnapshot(2, '<urn:s> <urn:p> "snapshot" .\n');
    await writeLog(3, [ insert('after') ]);
    writeFileSync(`${files.snapshotPath(4)}.tmp`, 'half a snapshot');
    const { store, writer, replayedRecords } = await recovery().recover();
    await writer.close();
    expect(values(store)).toEqual([ 'after', 'snapshot' ]);
    expect(replayedRecords).toBe(1);
    const listing = await files.list();
    expect(listing).toEqual({ snapshots: [ 2 ], logs: [ 3 ], temps: []});
  });

  it('opens the log after a snapshot when no newer log exists', async(): Promise<void> => {
    await files.writeSnapshot(5, '<urn:s> <urn:p> "only" .\n');
    const { store, writer } = await recovery().recover();
    expect(values(store)).toEqual([ 'only' ]);
    expect(writer.sequence).toBe(6);
    await writer.close();
  });

  it('refuses to start with a missing log between others', async(): Promise<void> => {
    await writeLog(1, [ insert('a') ]);
    await writeLog(3, [ insert('c') ]);
    await expect(recovery().recover()).rejects.toThrow('update log 2 is missing (found 1, 3 after snapshot 0)');
  });

  it('cuts off a torn tail of the newest log with a warning, keeping the records before it', async(): Promise<void> => {
    await writeLog(1, [ insert('a'), insert('b') ]);
    const validLength = statSync(files.logPath(1)).size;
    appendFileSync(files.logPath(1), Buffer.from([ 1, 2, 3, 4, 5, 6, 7, 8, 9 ]));
    const { store, writer } = await recovery().recover();
    await writer.close();
    expect(values(store)).toEqual([ 'a', 'b' ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`Truncating torn tail of ${files.logPath(1)}: 9 bytes after byte ${validLength}`);
    expect(statSync(files.logPath(1)).size).toBe(validLength);
  });

  it('refuses to start when an older log is damaged, rather than lose acknowledged updates', async(): Promise<void> => {
    await writeLog(1, [ insert('a') ]);
    appendFileSync(files.logPath(1), Buffer.from([ 9, 9, 9, 9, 9, 9, 9, 9, 9 ]));
    await writeLog(2, [ insert('b') ]);
    await expect(recovery().recover()).rejects.toThrow(`Update log ${files.logPath(1)} is corrupt at byte`);
  });

  it('notes a record that no longer applies and goes on with the rest', async(): Promise<void> => {
    await writeLog(1, [ insert('a'), { kind: 'update', sparql: 'DROP GRAPH <urn:never-made>' }, insert('b') ]);
    const { store, writer, replayedRecords } = await recovery().recover();
    await writer.close();
    expect(values(store)).toEqual([ 'a', 'b' ]);
    expect(replayedRecords).toBe(3);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`Replay of a record in ${files.logPath(1)} failed`);
  });
});
