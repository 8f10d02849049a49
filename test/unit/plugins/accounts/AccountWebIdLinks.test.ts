import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountWebIdLinks } from '../../../../src/plugins/accounts/AccountWebIdLinks';
import { FileAccountStore } from '../../../../src/plugins/accounts/FileAccountStore';

describe('AccountWebIdLinks', (): void => {
  let dataDir: string;
  let links: AccountWebIdLinks;
  const alice = 'https://pod.example/actors/alice';

  beforeEach(async(): Promise<void> => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-links-'));
    const accounts = new FileAccountStore(dataDir);
    await accounts.create({ username: 'alice', email: 'alice@example.org', webId: alice, passwordHash: 'x', created: '2026-01-01T00:00:00Z' });
    links = new AccountWebIdLinks(accounts);
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('links each account to its actor and to nothing else', async(): Promise<void> => {
    expect(await links.isLinked(alice, 'alice')).toBe(true);
    expect(await links.isLinked('https://pod.example/actors/bob', 'alice')).toBe(false);
    expect(await links.isLinked(alice, 'bob')).toBe(false);
    expect(await links.findLinks('alice')).toEqual([{ id: 'alice', webId: alice }]);
    expect(await links.findLinks('bob')).toEqual([]);
    expect(await links.get('alice')).toEqual({ accountId: 'alice', webId: alice });
    expect(await links.get('bob')).toBeUndefined();
  });

  it('refuses to make or remove links: the WebID is given at signup', async(): Promise<void> => {
    await expect(links.create()).rejects.toThrow(/signup/u);
    await expect(links.delete()).rejects.toThrow(/signup/u);
  });
});
