import { randomBytes } from 'node:crypto';
import { mkdtempSync, promises as fsPromises, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { readableToString } from '@solid/community-server';
import { fileMetadata, fileNameOf, ResourceFiles } from '../../../src/storage/ResourceFiles';

// File names come from randomBytes: watched, so a test can choose the names (and so the directories).
jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  return { ...actual, randomBytes: jest.fn(actual.randomBytes) };
});

describe('ResourceFiles', () => {
  let dataDir: string;
  let files: ResourceFiles;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-files-'));
    files = new ResourceFiles(dataDir);
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  function allFiles(): string[] {
    return readdirSync(join(dataDir, 'files'), { recursive: true, encoding: 'utf8' }).filter((name): boolean => /[0-9a-f]{32}$/u.test(name));
  }

  it('saves each version as a new file with its size, reads it whole or in part, and removes it', async() => {
    const first = await files.save(Readable.from([ Buffer.from('hello '), Buffer.from('world') ]));
    const second = await files.save(Readable.from([ Buffer.from([ 0, 255, 10 ]) ]));
    expect(first.size).toBe(11);
    expect(second.size).toBe(3);
    expect(first.name).not.toBe(second.name);
    expect(await readableToString(files.open(first.name))).toBe('hello world');
    expect(await readableToString(files.open(first.name, { start: 6, end: 10 }))).toBe('world');
    expect(allFiles()).toHaveLength(2);
    await files.remove(first.name);
    await files.remove(first.name);
    expect(allFiles()).toHaveLength(1);
  });

  it('makes a new directory\'s entry durable in its parent, once; the file\'s own directory every time', async() => {
    // A directory is synced by opening it read-only and fsyncing the handle (syncDirectory): watched here.
    const opened = jest.spyOn(fsPromises, 'open');
    const syncedDirectories = (): unknown[] => opened.mock.calls.filter(([ , flags ]) => flags === 'r').map(([ path ]) => path);
    // The first two random bytes of a name choose its directory.
    const names = jest.mocked(randomBytes) as unknown as jest.Mock<Buffer, [number]>;
    try {
      names.mockReturnValueOnce(Buffer.from('abcd', 'hex'));
      const first = await files.save(Readable.from([ Buffer.from('one') ]));
      const directory = join(dataDir, 'files', 'ab', 'cd');
      expect(first.name.startsWith('abcd')).toBe(true);
      // The three directories made (files/, ab/, cd/), each in its parent; then the file in cd/.
      expect(syncedDirectories()).toEqual([ join(dataDir, 'files', 'ab'), join(dataDir, 'files'), dataDir, directory ]);
      // Another process (nothing known in memory), the same directory: it exists, only the file's directory is synced.
      names.mockReturnValueOnce(Buffer.from('abcd', 'hex'));
      opened.mockClear();
      await new ResourceFiles(dataDir).save(Readable.from([ Buffer.from('two') ]));
      expect(syncedDirectories()).toEqual([ directory ]);
    } finally {
      opened.mockRestore();
    }
  });

  it('puts a few thousand new files in one directory before choosing another', async() => {
    const saved = await Promise.all(Array.from({ length: 20 }, async() => files.save(Readable.from([ Buffer.from('x') ]))));
    expect(new Set(saved.map(({ name }) => name.slice(0, 4))).size).toBe(1);
    expect(new Set(saved.map(({ name }) => name)).size).toBe(20);
    expect(saved.every(({ name }) => /^[0-9a-f]{32}$/u.test(name))).toBe(true);
  });

  it('leaves nothing behind when the body fails midway', async() => {
    const failing = new Readable({
      read(): void {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(files.save(failing)).rejects.toThrow('client went away');
    expect(readdirSync(join(dataDir, 'files'), { recursive: true, withFileTypes: true })
      .filter((entry): boolean => entry.isFile())).toEqual([]);
  });

  it('refuses a name it did not make (no path escapes the files directory)', () => {
    expect(() => files.open('../../etc/passwd')).toThrow('Not a resource file name');
  });

  it('describes a file in metadata, and finds the file again from it', () => {
    const metadata = fileMetadata('http://pod.example/a.txt', { name: 'a'.repeat(32), size: 5 }, 'text/plain');
    expect(fileNameOf(metadata)).toBe('a'.repeat(32));
    expect(metadata.map((entry): string => entry.object.value)).toEqual(expect.arrayContaining([ 'text/plain', '5',
      'http://www.w3.org/ns/ldp#NonRDFSource' ]));
    expect(fileNameOf([])).toBeUndefined();
  });
});
