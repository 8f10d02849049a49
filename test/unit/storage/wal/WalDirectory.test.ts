import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WalDirectory } from '../../../../src/storage/wal/WalDirectory';

describe('WalDirectory', (): void => {
  let directory: string;
  let files: WalDirectory;

  beforeEach((): void => {
    directory = mkdtempSync(join(tmpdir(), 'fedpod-wal-dir-'));
    files = new WalDirectory(directory, 'log-', '.wal');
  });

  afterEach((): void => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('names logs by sequence and lists them, with the temporary files of interrupted rewrites', async(): Promise<void> => {
    expect(files.path(12)).toBe(join(directory, 'log-000000000012.wal'));
    expect(files.sequenceOf('log-000000000012.wal')).toBe(12);
    expect(files.sequenceOf('log-12.wal')).toBeUndefined();
    expect(files.sequenceOf('log-000000000012.walx')).toBeUndefined();
    for (const name of [ 'log-000000000010.wal', 'log-000000000002.wal', 'log-000000000011.wal.tmp',
      'snapshot-000000000001.nq', 'snapshot-000000000001.nq.tmp', 'lock' ]) {
      writeFileSync(join(directory, name), 'x');
    }
    expect(await files.list()).toEqual({ sequences: [ 2, 10 ], temps: [ join(directory, 'log-000000000011.wal.tmp') ]});
  });

  it('truncates a log, keeping what it cut where asked', async(): Promise<void> => {
    writeFileSync(files.path(1), 'keep this|cut that');
    await files.truncate(1, 10, join(directory, 'cut'));
    expect(readFileSync(files.path(1), 'utf8')).toBe('keep this|');
    expect(readFileSync(join(directory, 'cut'), 'utf8')).toBe('cut that');
    await files.truncate(1, 4);
    expect(readFileSync(files.path(1), 'utf8')).toBe('keep');
  });
});
