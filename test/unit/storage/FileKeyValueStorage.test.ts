import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileKeyValueStorage } from '../../../src/storage/FileKeyValueStorage';

describe('FileKeyValueStorage', (): void => {
  let dataDir: string;
  let storage: FileKeyValueStorage<unknown>;

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-kv-'));
    storage = new FileKeyValueStorage(dataDir, 'oidc/adapter');
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('has nothing before anything is set, without creating its directory', async(): Promise<void> => {
    expect(await storage.get('a')).toBeUndefined();
    expect(await storage.has('a')).toBe(false);
    expect(await storage.delete('a')).toBe(false);
    const entries = [];
    for await (const entry of storage.entries()) {
      entries.push(entry);
    }
    expect(entries).toEqual([]);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('keeps JSON values under any key, one private file each, in a private directory', async(): Promise<void> => {
    await storage.set('Session:abc/../../x', { nested: [ 1, 'two' ], at: null });
    await storage.set('jwks', [ 'k' ]);
    expect(await storage.get('Session:abc/../../x')).toEqual({ nested: [ 1, 'two' ], at: null });
    expect(await storage.has('jwks')).toBe(true);
    const directory = join(dataDir, 'oidc', 'adapter');
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    const files = readdirSync(directory);
    expect(files).toHaveLength(2);
    expect(files.every((name): boolean => /^[0-9a-f]{64}\.json$/u.test(name))).toBe(true);
    expect(statSync(join(directory, files[0])).mode & 0o777).toBe(0o600);
  });

  it('overwrites, deletes, and lists what is left', async(): Promise<void> => {
    await storage.set('a', 1);
    await storage.set('a', 2);
    await storage.set('b', 3);
    expect(await storage.delete('b')).toBe(true);
    const entries: [string, unknown][] = [];
    for await (const entry of storage.entries()) {
      entries.push(entry);
    }
    expect(entries).toEqual([[ 'a', 2 ]]);
  });

  it('is read back by another instance on the same directory (a restart)', async(): Promise<void> => {
    await storage.set('cookie-secret', [ 's' ]);
    const again = new FileKeyValueStorage(dataDir, 'oidc/adapter');
    expect(await again.get('cookie-secret')).toEqual([ 's' ]);
    expect(await new FileKeyValueStorage(dataDir, 'oidc/keys').get('cookie-secret')).toBeUndefined();
  });

  describe('with a cache', (): void => {
    it('sees its own writes and deletes at once, and hands out copies', async(): Promise<void> => {
      const cached = new FileKeyValueStorage<{ n: number }>(dataDir, 'internal', 50);
      expect(await cached.get('k')).toBeUndefined();
      const value = { n: 1 };
      await cached.set('k', value);
      value.n = 2;
      expect(await cached.get('k')).toEqual({ n: 1 });
      expect(await cached.delete('k')).toBe(true);
      expect(await cached.has('k')).toBe(false);
    });

    it('sees another writer\'s change once the check interval has passed, not before', async(): Promise<void> => {
      // The clock is moved by hand, so that a slow machine cannot make the interval pass early.
      const start = Date.now();
      let offset = 0;
      const clock = jest.spyOn(Date, 'now').mockImplementation((): number => start + offset);
      try {
        const cached = new FileKeyValueStorage<string>(dataDir, 'internal', 1000);
        const other = new FileKeyValueStorage<string>(dataDir, 'internal');
        expect(await cached.get('k')).toBeUndefined();
        await other.set('k', 'from another node');
        // Answered from memory: no file is read for a key known absent within the interval.
        expect(await cached.get('k')).toBeUndefined();
        offset = 1001;
        expect(await cached.get('k')).toBe('from another node');
        await other.delete('k');
        offset = 2002;
        expect(await cached.get('k')).toBeUndefined();
      } finally {
        clock.mockRestore();
      }
    });

    it('reads every time without one (the default)', async(): Promise<void> => {
      const other = new FileKeyValueStorage<string>(dataDir, 'oidc/adapter');
      expect(await storage.get('k')).toBeUndefined();
      await other.set('k', 'v');
      expect(await storage.get('k')).toBe('v');
    });
  });
});
