import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientCredentialsFileStore } from '../../../../src/plugins/accounts/ClientCredentialsFileStore';

describe('ClientCredentialsFileStore', (): void => {
  let dataDir: string;
  let store: ClientCredentialsFileStore;
  const alice = 'https://pod.example/actors/alice';

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-clients-'));
    store = new ClientCredentialsFileStore(dataDir);
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes a client id from a cleaned name and a random part, and a long random secret', async(): Promise<void> => {
    const made = await store.create('  My Bot! (v2) ', alice, 'alice');
    expect(made.id).toMatch(/^my-bot-v2_[0-9a-f]{24}$/u);
    expect(made.label).toBe(made.id);
    expect(made.secret).toMatch(/^[\w-]{43}$/u);
    expect(made.webId).toBe(alice);
    expect(made.accountId).toBe('alice');
    expect(Number.isNaN(Date.parse(made.created))).toBe(false);
    const other = await store.create('My Bot! (v2)', alice, 'alice');
    expect(other.id).not.toBe(made.id);
    expect(other.secret).not.toBe(made.secret);
    expect((await store.create('!!!', alice, 'alice')).id).toMatch(/^client_/u);
  });

  it('finds a client by id and by label, and lists an account clients in order of making', async(): Promise<void> => {
    const first = await store.create('one', alice, 'alice');
    const second = await store.create('two', alice, 'alice');
    await store.create('bobs', 'https://pod.example/actors/bob', 'bob');
    expect(await store.get(first.id)).toEqual(first);
    expect(await store.findByLabel(second.id)).toEqual(second);
    expect(await store.get('unknown_000')).toBeUndefined();
    const listed = await store.findByAccount('alice');
    expect(listed.map((record): string => record.id).sort()).toEqual([ first.id, second.id ].sort());
    expect(listed.map((record): string => record.created)).toEqual([ ...listed.map((record): string => record.created) ].sort());
    expect(await store.findByAccount('carol')).toEqual([]);
  });

  it('keeps clients across instances (a restart) until deleted', async(): Promise<void> => {
    const made = await store.create('bot', alice, 'alice');
    expect(await new ClientCredentialsFileStore(dataDir).get(made.id)).toEqual(made);
    await store.delete(made.id);
    expect(await new ClientCredentialsFileStore(dataDir).get(made.id)).toBeUndefined();
    await expect(store.delete(made.id)).resolves.toBeUndefined();
  });
});
