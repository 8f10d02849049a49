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
});
