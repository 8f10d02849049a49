import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Account } from '../../../../src/plugins/accounts/Account';
import { FileAccountStore } from '../../../../src/plugins/accounts/FileAccountStore';

function account(username: string, hash: string): Account {
  return { username, email: `${username}@example.org`, webId: `https://pod.example/actors/${username}`,
    passwordHash: hash, created: '2024-01-02T03:04:05.000Z' };
}

/** Two stores on one directory behave as two nodes sharing the data directory. */
describe('FileAccountStore on a data directory shared by several nodes', (): void => {
  let dataDir: string;
  let nodeA: FileAccountStore;
  let nodeB: FileAccountStore;

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-accounts-nodes-'));
    // Node B checks the file on every lookup here; the recheck interval has its own test below.
    nodeA = new FileAccountStore(dataDir);
    nodeB = new FileAccountStore(dataDir, 0);
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds on one node an account created on the other right after a miss there', async(): Promise<void> => {
    expect(await nodeB.findByUsername('alice')).toBeUndefined();
    expect(await nodeA.create(account('alice', 'hash-1'))).toEqual({ created: true });
    expect(await nodeB.findByUsername('alice')).toMatchObject({ passwordHash: 'hash-1' });
    expect(await nodeB.findByEmail('alice@example.org')).toMatchObject({ username: 'alice' });
  });

  it('never serves an account removed, or removed and made again, on the other node', async(): Promise<void> => {
    await nodeA.create(account('alice', 'hash-1'));
    expect(await nodeB.findByUsername('alice')).toMatchObject({ passwordHash: 'hash-1' });
    await nodeA.remove('alice');
    expect(await nodeB.findByUsername('alice')).toBeUndefined();
    await nodeA.create(account('alice', 'hash-2'));
    expect(await nodeB.findByUsername('alice')).toMatchObject({ passwordHash: 'hash-2' });
    await nodeA.remove('alice');
    await nodeA.create(account('alice', 'hash-3'));
    expect(await nodeB.findByUsername('alice')).toMatchObject({ passwordHash: 'hash-3' });
  });

  it('serves a looked-up account from memory for recheckMs, then checks its file again', async(): Promise<void> => {
    const nodeC = new FileAccountStore(dataDir, 200);
    await nodeA.create(account('alice', 'hash-1'));
    expect(await nodeC.findByUsername('alice')).toMatchObject({ passwordHash: 'hash-1' });
    await nodeA.remove('alice');
    // Within the interval: no stat, the account as it was.
    expect(await nodeC.findByUsername('alice')).toMatchObject({ passwordHash: 'hash-1' });
    await new Promise((resolve): void => {
      setTimeout(resolve, 250);
    });
    expect(await nodeC.findByUsername('alice')).toBeUndefined();
  });
});
