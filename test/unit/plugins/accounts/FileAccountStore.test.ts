import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Account } from '../../../../src/plugins/accounts/Account';
import { FileAccountStore } from '../../../../src/plugins/accounts/FileAccountStore';

function account(username: string, email = `${username}@example.org`): Account {
  return {
    username,
    email,
    webId: `https://pod.example/actors/${username}`,
    passwordHash: `scrypt$16384$8$1$salt-of-${username}$hash`,
    created: '2024-01-02T03:04:05.000Z',
  };
}

describe('FileAccountStore', (): void => {
  let dataDir: string;
  let store: FileAccountStore;

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-accounts-'));
    store = new FileAccountStore(dataDir);
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds nothing and lists nothing before any account exists', async(): Promise<void> => {
    await expect(store.findByUsername('alice')).resolves.toBeUndefined();
    await expect(store.findByEmail('alice@example.org')).resolves.toBeUndefined();
    await expect(store.list()).resolves.toEqual([]);
    await expect(store.remove('alice')).resolves.toBeUndefined();
  });

  it('creates an account and finds it by username and by email', async(): Promise<void> => {
    const alice = account('alice');
    await expect(store.create(alice)).resolves.toEqual({ created: true });
    await expect(store.findByUsername('alice')).resolves.toEqual(alice);
    await expect(store.findByEmail('alice@example.org')).resolves.toEqual(alice);
    await expect(store.findByUsername('bob')).resolves.toBeUndefined();
    await expect(store.findByEmail('bob@example.org')).resolves.toBeUndefined();
  });

  it('finds by email whatever its case', async(): Promise<void> => {
    const alice = account('alice', 'alice@example.org');
    await store.create(alice);
    await expect(store.findByEmail('Alice@Example.ORG')).resolves.toEqual(alice);
    await expect(store.findByEmail('ALICE@EXAMPLE.ORG')).resolves.toEqual(alice);
  });

  it('keeps accounts across instances on the same directory', async(): Promise<void> => {
    await store.create(account('alice'));
    const other = new FileAccountStore(dataDir);
    await expect(other.findByUsername('alice')).resolves.toEqual(account('alice'));
    await expect(other.create(account('alice', 'new@example.org'))).resolves.toEqual({ created: false, taken: 'username' });
  });

  it('refuses a taken username and changes nothing, not even registering the new email', async(): Promise<void> => {
    const alice = account('alice', 'alice@example.org');
    await store.create(alice);
    const impostor = { ...account('alice', 'impostor@example.org'), passwordHash: 'other' };
    await expect(store.create(impostor)).resolves.toEqual({ created: false, taken: 'username' });
    await expect(store.findByUsername('alice')).resolves.toEqual(alice);
    await expect(store.findByEmail('impostor@example.org')).resolves.toBeUndefined();
    // The refused email is free for someone else.
    await expect(store.create(account('bob', 'impostor@example.org'))).resolves.toEqual({ created: true });
    await expect(store.list()).resolves.toEqual([ 'alice', 'bob' ]);
  });

  it('refuses a taken email, whatever its case, and changes nothing', async(): Promise<void> => {
    const alice = account('alice', 'alice@example.org');
    await store.create(alice);
    await expect(store.create(account('bob', 'ALICE@example.org'))).resolves.toEqual({ created: false, taken: 'email' });
    await expect(store.findByUsername('bob')).resolves.toBeUndefined();
    await expect(store.findByEmail('alice@example.org')).resolves.toEqual(alice);
    await expect(store.list()).resolves.toEqual([ 'alice' ]);
    // bob can still sign up with another email.
    await expect(store.create(account('bob'))).resolves.toEqual({ created: true });
  });

  it('lets exactly one of ten concurrent creates of one username win', async(): Promise<void> => {
    const attempts = Array.from({ length: 10 }, (_, index): Account => account('carol', `carol${index}@example.org`));
    const results = await Promise.all(attempts.map(async(attempt): Promise<unknown> => store.create(attempt)));
    const winners = results.map((result, index): number => (result as { created: boolean }).created ? index : -1)
      .filter((index): boolean => index >= 0);
    expect(winners).toHaveLength(1);
    expect(results.filter((result): boolean => !(result as { created: boolean }).created))
      .toEqual(Array.from({ length: 9 }, (): unknown => ({ created: false, taken: 'username' })));
    const winner = attempts[winners[0]];
    await expect(store.findByUsername('carol')).resolves.toEqual(winner);
    // Only the winner's email is registered.
    for (const attempt of attempts) {
      await expect(store.findByEmail(attempt.email)).resolves.toEqual(attempt === winner ? winner : undefined);
    }
    await expect(store.list()).resolves.toEqual([ 'carol' ]);
  });

  it('lets exactly one of ten concurrent creates with one email win', async(): Promise<void> => {
    const attempts = Array.from({ length: 10 }, (_, index): Account => account(`user${index}`, 'shared@example.org'));
    const results = await Promise.all(attempts.map(async(attempt): Promise<unknown> => store.create(attempt)));
    expect(results.filter((result): boolean => (result as { created: boolean }).created)).toHaveLength(1);
    expect(results.filter((result): boolean => (result as { taken?: string }).taken === 'email')).toHaveLength(9);
    const names = await store.list();
    expect(names).toHaveLength(1);
    await expect(store.findByEmail('shared@example.org')).resolves.toEqual(expect.objectContaining({ username: names[0] }));
  });

  it('removes an account, freeing its username and email', async(): Promise<void> => {
    await store.create(account('alice'));
    await store.create(account('bob'));
    await store.remove('alice');
    await expect(store.findByUsername('alice')).resolves.toBeUndefined();
    await expect(store.findByEmail('alice@example.org')).resolves.toBeUndefined();
    await expect(store.list()).resolves.toEqual([ 'bob' ]);
    await expect(store.findByUsername('bob')).resolves.toEqual(account('bob'));
    await expect(store.create(account('alice'))).resolves.toEqual({ created: true });
  });

  it('ignores the removal of an unknown or unsafe username', async(): Promise<void> => {
    await store.create(account('alice'));
    await expect(store.remove('nobody')).resolves.toBeUndefined();
    await expect(store.remove('../alice')).resolves.toBeUndefined();
    await expect(store.list()).resolves.toEqual([ 'alice' ]);
  });

  it('lists usernames sorted, without leftover temporary files', async(): Promise<void> => {
    for (const name of [ 'zed', 'alice', 'm.o-n_1' ]) {
      await store.create(account(name));
    }
    // A temporary file a crashed write could leave behind.
    writeFileSync(join(dataDir, 'accounts', 'users', 'bob.json.1234.tmp'), '{}');
    await expect(store.list()).resolves.toEqual([ 'alice', 'm.o-n_1', 'zed' ]);
  });

  it('never uses an unsafe username as a file name', async(): Promise<void> => {
    await store.create(account('alice'));
    // A file outside users/ that a path traversal would reach.
    writeFileSync(join(dataDir, 'accounts', 'x.json'), JSON.stringify(account('x')));
    writeFileSync(join(dataDir, 'x.json'), JSON.stringify(account('x')));
    for (const unsafe of [ '../x', '../../x', '/etc/passwd', 'Alice', '', '.hidden', '-dash', 'a/b', 'a\\b',
      'alice\0', 'a'.repeat(65) ]) {
      await expect(store.findByUsername(unsafe)).resolves.toBeUndefined();
    }
  });

  it('refuses to create an account with an unsafe username, writing no user file', async(): Promise<void> => {
    await expect(store.create(account('../x', 'x@example.org'))).rejects.toThrow();
    expect(existsSync(join(dataDir, 'accounts', 'x.json'))).toBe(false);
    const users = join(dataDir, 'accounts', 'users');
    // Refused before anything is written: the directory may not even exist.
    expect(existsSync(users) ? readdirSync(users) : []).toEqual([]);
  });

  // BUG: FileAccountStore.create (src/plugins/accounts/FileAccountStore.ts:32-35) links the email file before
  // userFile() checks the username; userFile throws for an unsafe one and nothing removes the email file, so the
  // email stays taken by a non-existent account ("changes nothing" in AccountStore's contract). AccountService
  // validates usernames first, so signup does not reach it today; other callers of the store would.
  it('leaves the email free after refusing an unsafe username', async(): Promise<void> => {
    await expect(store.create(account('../x', 'x@example.org'))).rejects.toThrow();
    await expect(store.create(account('xavier', 'x@example.org'))).resolves.toEqual({ created: true });
  });

  it('keeps account files out of reach of other users (mode 0600 / 0700)', async(): Promise<void> => {
    await store.create(account('alice'));
    expect(statSync(join(dataDir, 'accounts', 'users')).mode & 0o077).toBe(0);
    expect(statSync(join(dataDir, 'accounts', 'users', 'alice.json')).mode & 0o077).toBe(0);
  });
});

function accountWithHash(username: string, hash: string): Account {
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
    expect(await nodeA.create(accountWithHash('alice', 'hash-1'))).toEqual({ created: true });
    expect(await nodeB.findByUsername('alice')).toMatchObject({ passwordHash: 'hash-1' });
    expect(await nodeB.findByEmail('alice@example.org')).toMatchObject({ username: 'alice' });
  });

  it('never serves an account removed, or removed and made again, on the other node', async(): Promise<void> => {
    await nodeA.create(accountWithHash('alice', 'hash-1'));
    expect(await nodeB.findByUsername('alice')).toMatchObject({ passwordHash: 'hash-1' });
    await nodeA.remove('alice');
    expect(await nodeB.findByUsername('alice')).toBeUndefined();
    await nodeA.create(accountWithHash('alice', 'hash-2'));
    expect(await nodeB.findByUsername('alice')).toMatchObject({ passwordHash: 'hash-2' });
    await nodeA.remove('alice');
    await nodeA.create(accountWithHash('alice', 'hash-3'));
    expect(await nodeB.findByUsername('alice')).toMatchObject({ passwordHash: 'hash-3' });
  });

  it('serves a looked-up account from memory for recheckMs, then checks its file again', async(): Promise<void> => {
    const nodeC = new FileAccountStore(dataDir, 200);
    await nodeA.create(accountWithHash('alice', 'hash-1'));
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
