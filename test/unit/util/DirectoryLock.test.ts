import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DirectoryLock } from '../../../src/util/DirectoryLock';

const OPTIONS = { fileName: 'LOCK', label: 'Queue directory' };

describe('DirectoryLock', (): void => {
  let root: string;
  let dir: string;
  let lockFile: string;

  beforeEach((): void => {
    root = mkdtempSync(path.join(tmpdir(), 'fedpod-lock-'));
    dir = path.join(root, 'data', 'queue');
    lockFile = path.join(dir, 'LOCK');
  });

  afterEach((): void => {
    rmSync(root, { recursive: true, force: true });
  });

  it('makes the directory and a lock file naming this process, removed on release', async(): Promise<void> => {
    const lock = await DirectoryLock.acquire(dir, OPTIONS);
    expect(readFileSync(lockFile, 'utf8')).toMatch(new RegExp(`^${process.pid} [0-9a-f-]{36}\\n$`, 'u'));
    await lock.release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('refuses a directory locked by another live process, naming it', async(): Promise<void> => {
    await DirectoryLock.acquire(dir, OPTIONS).then(async(lock): Promise<void> => lock.release());
    // The parent of this test process is alive and is another process.
    writeFileSync(lockFile, `${process.ppid} other\n`);
    await expect(DirectoryLock.acquire(dir, OPTIONS)).rejects
      .toThrow(`Queue directory ${dir} is in use by process ${process.ppid} (lock file ${lockFile})`);
    expect(readFileSync(lockFile, 'utf8')).toBe(`${process.ppid} other\n`);
  });

  it('takes over a lock left by a dead process, by this pid, or unreadable', async(): Promise<void> => {
    const dead = spawnSync(process.execPath, [ '-e', '' ]).pid!;
    for (const stale of [ `${dead} gone\n`, `${process.pid} earlier\n`, 'garbage' ]) {
      await DirectoryLock.acquire(dir, OPTIONS).then(async(lock): Promise<void> => lock.release());
      writeFileSync(lockFile, stale);
      const lock = await DirectoryLock.acquire(dir, OPTIONS);
      expect(readFileSync(lockFile, 'utf8')).toMatch(new RegExp(`^${process.pid} `, 'u'));
      await lock.release();
    }
  });

  it('leaves a lock file that is no longer its own on release', async(): Promise<void> => {
    const lock = await DirectoryLock.acquire(dir, OPTIONS);
    writeFileSync(lockFile, `${process.ppid} taken over\n`);
    await lock.release();
    expect(readFileSync(lockFile, 'utf8')).toBe(`${process.ppid} taken over\n`);
  });

  it('refuses a second lock in this process when asked to, until the first is released', async(): Promise<void> => {
    const exclusive = { ...OPTIONS, exclusiveInProcess: true };
    const first = await DirectoryLock.acquire(dir, exclusive);
    await expect(DirectoryLock.acquire(`${dir}/`, exclusive)).rejects.toThrow(`Queue directory ${dir} is already open in this process`);
    await first.release();
    const second = await DirectoryLock.acquire(dir, exclusive);
    await second.release();
  });

  it('frees the in-process claim when locking fails', async(): Promise<void> => {
    const exclusive = { ...OPTIONS, exclusiveInProcess: true };
    // A file where the directory should be: mkdir fails.
    writeFileSync(path.join(root, 'file'), '');
    const blocked = path.join(root, 'file', 'queue');
    await expect(DirectoryLock.acquire(blocked, exclusive)).rejects.toThrow();
    await expect(DirectoryLock.acquire(blocked, exclusive)).rejects.not.toThrow('already open');
  });
});
