import { mkdtempSync, promises as fsPromises, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileOnce, makeDirectoryDurably, syncDirectory, writeFileDurably } from '../../../src/util/DurableFiles';

describe('DurableFiles', (): void => {
  let dir: string;

  beforeEach((): void => {
    dir = mkdtempSync(join(tmpdir(), 'fedpod-durable-'));
  });

  afterEach((): void => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes directories with each new one synced in its parent, and syncs nothing for one already there', async(): Promise<void> => {
    // A directory is synced by opening it read-only and fsyncing the handle: watched here.
    const opened = jest.spyOn(fsPromises, 'open');
    const synced = (): unknown[] => opened.mock.calls.filter(([ , flags ]) => flags === 'r').map(([ path ]) => path);
    try {
      await makeDirectoryDurably(join(dir, 'a', 'b', 'c'), 0o700);
      expect(statSync(join(dir, 'a', 'b', 'c')).mode & 0o777).toBe(0o700);
      expect(synced()).toEqual([ join(dir, 'a', 'b'), join(dir, 'a'), dir ]);
      opened.mockClear();
      await makeDirectoryDurably(join(dir, 'a', 'b', 'd'));
      expect(synced()).toEqual([ join(dir, 'a', 'b') ]);
      opened.mockClear();
      await makeDirectoryDurably(join(dir, 'a', 'b'));
      expect(synced()).toEqual([]);
    } finally {
      opened.mockRestore();
    }
  });

  it('writes a new file readable by its owner only, leaving no temporary file', async(): Promise<void> => {
    const file = join(dir, 'record.json');
    await writeFileDurably(file, '{"a":1}');
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([ 'record.json' ]);
  });

  it('replaces an existing file whole', async(): Promise<void> => {
    const file = join(dir, 'record.json');
    writeFileSync(file, 'old content that is longer than the new one');
    await writeFileDurably(file, Buffer.from('new'));
    expect(readFileSync(file, 'utf8')).toBe('new');
  });

  it('leaves the old file and no temporary file when the write fails', async(): Promise<void> => {
    const file = join(dir, 'missing-directory', 'record.json');
    await expect(writeFileDurably(file, 'x')).rejects.toThrow(/ENOENT/u);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('syncs an existing directory and fails on a missing one', async(): Promise<void> => {
    await expect(syncDirectory(dir)).resolves.toBeUndefined();
    await expect(syncDirectory(join(dir, 'nope'))).rejects.toThrow(/ENOENT/u);
  });

  it('creates a file once: of several made at the same time one wins, and an existing one stays', async(): Promise<void> => {
    const file = join(dir, 'keys', 'key.json');
    await Promise.all([ 'a', 'b', 'c' ].map(async(content): Promise<void> => createFileOnce(file, content)));
    const made = readFileSync(file, 'utf8');
    expect([ 'a', 'b', 'c' ]).toContain(made);
    await createFileOnce(file, 'd');
    expect(readFileSync(file, 'utf8')).toBe(made);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'keys'))).toEqual([ 'key.json' ]);
  });

  it('creates a file once durably: its bytes fsynced before they are linked, then its directory', async(): Promise<void> => {
    const opened = jest.spyOn(fsPromises, 'open');
    try {
      const file = join(dir, 'keys', 'key.json');
      await createFileOnce(file, 'secret');
      const calls = opened.mock.calls.map(([ path, flags ]): [ string, unknown ] => [ String(path), flags ]);
      // The temporary file is written through a handle (which is fsynced), then the directory is synced.
      expect(calls.find(([ path, flags ]) => path.startsWith(`${file}.`) && flags === 'wx')).toBeDefined();
      expect(calls.at(-1)).toEqual([ join(dir, 'keys'), 'r' ]);
      expect(readFileSync(file, 'utf8')).toBe('secret');
    } finally {
      opened.mockRestore();
    }
  });
});
