import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VapidKeys } from '../../../../src/plugins/mastodon/VapidKeys';

describe('VapidKeys', (): void => {
  let dataDir: string;

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-vapid-'));
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes one P-256 key pair, kept in the data directory for every instance and restart', async(): Promise<void> => {
    const [ first, second ] = await Promise.all([ new VapidKeys(dataDir).keyPair(), new VapidKeys(dataDir).keyPair() ]);
    expect(second).toEqual(first);
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(first.privateKey, 'base64url')).toHaveLength(32);
    expect(await new VapidKeys(dataDir).publicKey()).toBe(first.publicKey);
    expect(statSync(join(dataDir, 'keys', 'vapid.json')).mode & 0o777).toBe(0o600);
  });

  it('never replaces a key file it cannot read (that would end every subscription)', async(): Promise<void> => {
    mkdirSync(join(dataDir, 'keys'));
    writeFileSync(join(dataDir, 'keys', 'vapid.json'), '{}');
    await expect(new VapidKeys(dataDir).keyPair()).rejects.toThrow('holds no VAPID key pair');
    expect(readFileSync(join(dataDir, 'keys', 'vapid.json'), 'utf8')).toBe('{}');
  });
});
