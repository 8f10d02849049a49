import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetFiles } from '../../../../src/storage/embedded/DatasetFiles';

describe('DatasetFiles', (): void => {
  let root: string;
  let directory: string;
  let files: DatasetFiles;

  beforeEach(async(): Promise<void> => {
    root = mkdtempSync(join(tmpdir(), 'fedpod-dataset-files-'));
    directory = join(root, 'datasets', 'ds');
    files = new DatasetFiles(directory);
    await files.ensureDirectory();
  });

  afterEach((): void => {
    rmSync(root, { recursive: true, force: true });
  });

  it('names snapshots and logs by their sequence, padded to sort as text', (): void => {
    expect(files.snapshotPath(7)).toBe(join(directory, 'snapshot-000000000007.nq'));
    expect(files.logPath(123456789012)).toBe(join(directory, 'log-123456789012.wal'));
    expect(files.directory).toBe(directory);
  });

  it('lists snapshots and logs in ascending order and leftover temporary files, ignoring the rest', async(): Promise<void> => {
    for (const sequence of [ 10, 2, 1 ]) {
      writeFileSync(files.logPath(sequence), '');
    }
    writeFileSync(files.snapshotPath(9), '');
    writeFileSync(files.snapshotPath(1), '');
    writeFileSync(`${files.snapshotPath(12)}.tmp`, 'half');
    writeFileSync(join(directory, 'notes.txt'), '');
    writeFileSync(join(directory, 'log-12.wal'), '');
    const listing = await files.list();
    expect(listing.logs).toEqual([ 1, 2, 10 ]);
    expect(listing.snapshots).toEqual([ 1, 9 ]);
    expect(listing.temps).toEqual([ `${files.snapshotPath(12)}.tmp` ]);
  });

  it('publishes a snapshot whole under its final name, with no temporary file left', async(): Promise<void> => {
    await files.writeSnapshot(3, '<urn:s> <urn:p> "o" .\n');
    expect(readFileSync(files.snapshotPath(3), 'utf8')).toBe('<urn:s> <urn:p> "o" .\n');
    expect(readdirSync(directory)).toEqual([ 'snapshot-000000000003.nq' ]);
  });

  it('removes the logs a snapshot covers and the older snapshots, keeping what follows', async(): Promise<void> => {
    for (const sequence of [ 1, 2, 3, 4 ]) {
      writeFileSync(files.logPath(sequence), '');
    }
    await files.writeSnapshot(1, '');
    await files.writeSnapshot(3, '');
    await files.removeCoveredBy(3);
    const listing = await files.list();
    expect(listing.logs).toEqual([ 4 ]);
    expect(listing.snapshots).toEqual([ 3 ]);
    await expect(files.removeCoveredBy(3)).resolves.toBeUndefined();
  });

  it('removes leftover temporary files, those already gone too', async(): Promise<void> => {
    const temp = `${files.snapshotPath(5)}.tmp`;
    writeFileSync(temp, 'half');
    await files.removeTemps([ temp, join(directory, 'gone.tmp') ]);
    expect(existsSync(temp)).toBe(false);
  });

  it('fails to list or sync a directory that is not there', async(): Promise<void> => {
    const missing = new DatasetFiles(join(root, 'missing'));
    await expect(missing.list()).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(missing.syncDirectory()).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
