import { createPrivateKey, createPublicKey, createSign, createVerify } from 'node:crypto';
import { existsSync, mkdtempSync, promises as fsPromises, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActorKeyStore } from '../../../../src/plugins/activitypub/ActorKeyStore';

describe('ActorKeyStore', (): void => {
  let dataDir: string;
  let keys: ActorKeyStore;

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-actor-keys-'));
    keys = new ActorKeyStore(dataDir);
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes an RSA-2048 key pair that signs and verifies, and gives it back from its files', async(): Promise<void> => {
    const pair = await keys.create('alice');
    const privateKey = createPrivateKey(pair.privateKeyPem);
    expect(privateKey.asymmetricKeyType).toBe('rsa');
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const signature = createSign('sha256').update('hello').sign(privateKey);
    expect(createVerify('sha256').update('hello').verify(createPublicKey(pair.publicKeyPem), signature)).toBe(true);
    expect(await keys.publicKeyPem('alice')).toBe(pair.publicKeyPem);
    expect(await keys.privateKeyPem('alice')).toBe(pair.privateKeyPem);
  });

  it('keeps the private key readable by the server\'s user only', async(): Promise<void> => {
    await keys.create('alice');
    const dir = join(dataDir, 'actors', 'alice');
    expect(statSync(join(dir, 'private.pem')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('syncs the actor\'s directory once both key files are written', async(): Promise<void> => {
    // A directory is synced by opening it read-only and fsyncing the handle: watched here.
    const opened = jest.spyOn(fsPromises, 'open');
    try {
      await keys.create('alice');
      const dir = join(dataDir, 'actors', 'alice');
      const calls = opened.mock.calls.map(([ path, flags ]): string => `${String(path)} ${String(flags)}`);
      expect(calls.indexOf(`${dir} r`)).toBeGreaterThan(calls.indexOf(`${join(dir, 'public.pem')} wx`));
      expect(calls.indexOf(`${join(dir, 'public.pem')} wx`)).toBeGreaterThan(-1);
    } finally {
      opened.mockRestore();
    }
  });

  it('gives a new pair per actor and refuses to overwrite one', async(): Promise<void> => {
    const alice = await keys.create('alice');
    const bob = await keys.create('bob');
    expect(bob.publicKeyPem).not.toBe(alice.publicKeyPem);
    await expect(keys.create('alice')).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await keys.privateKeyPem('alice')).toBe(alice.privateKeyPem);
  });

  it('has no keys for an actor without any, and none once removed', async(): Promise<void> => {
    expect(await keys.publicKeyPem('nobody')).toBeUndefined();
    expect(await keys.privateKeyPem('nobody')).toBeUndefined();
    await keys.create('alice');
    await keys.remove('alice');
    expect(await keys.privateKeyPem('alice')).toBeUndefined();
    expect(existsSync(join(dataDir, 'actors', 'alice'))).toBe(false);
    await expect(keys.remove('alice')).resolves.toBeUndefined();
  });

  it.each([ '../escape', 'a/b', '', 'Alice', '.hidden' ])('refuses the unsafe username %j as a directory name', async(name): Promise<void> => {
    await expect(keys.create(name)).rejects.toThrow(`Unsafe username for a directory name: ${JSON.stringify(name)}`);
    await expect(keys.publicKeyPem(name)).rejects.toThrow('Unsafe username');
    await expect(keys.remove(name)).rejects.toThrow('Unsafe username');
  });
});
