import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountImport, AccountImportsOptions } from '../../../../src/plugins/lifecycle/AccountImports';
import { AccountImports } from '../../../../src/plugins/lifecycle/AccountImports';
import { FileKeyValueStorage } from '../../../../src/storage/FileKeyValueStorage';

describe('AccountImports', () => {
  let dir: string;
  let blocked: string[];
  let added: { id: string }[];
  let imports: AccountImports;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'account-imports-'));
    blocked = [];
    added = [];
    const domainBlocks = {
      block: async(username: string, domain: string): Promise<{ domain: string }> => {
        if (!domain.includes('.')) {
          throw new Error(`${domain} is not a domain`);
        }
        blocked.push(domain);
        return { domain };
      },
    };
    const queues = { create: () => ({ add: async(data: { id: string }): Promise<string> => {
      added.push(data);
      return data.id;
    } }) };
    imports = new AccountImports({ dataDir: dir, queues, domainBlocks } as unknown as AccountImportsOptions);
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('queues an import by its id and reports the rows that fail without stopping', async() => {
    const started = await imports.start('zed', 'domain_blocks', 'merge', 'one.example\nnot-a-domain\ntwo.example\n');
    expect(added).toEqual([{ id: started.id }]);
    expect(started).toMatchObject({ state: 'queued', total: 3, done: 0 });
    await imports.run(started.id);
    expect(blocked).toEqual([ 'one.example', 'two.example' ]);
    expect(await imports.status('zed', started.id)).toMatchObject({ state: 'finished', done: 3, imported: 2,
      failed: [{ line: 2, value: 'not-a-domain', error: 'not-a-domain is not a domain' }]});
    await expect(imports.status('alice', started.id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('goes on from the last saved row after a restart, and does nothing for a finished import', async() => {
    const started = await imports.start('zed', 'domain_blocks', 'merge', 'one.example\ntwo.example\nthree.example\n');
    // As a stop after the first row would have left it.
    const storage = new FileKeyValueStorage<AccountImport>(dir, 'imports');
    const record = (await storage.get(started.id))!;
    await storage.set(started.id, { ...record, state: 'running', done: 1, imported: 1, kept: [ 'one.example' ]});
    await imports.run(started.id);
    expect(blocked).toEqual([ 'two.example', 'three.example' ]);
    expect(await imports.status('zed', started.id)).toMatchObject({ state: 'finished', done: 3, imported: 3 });
    await imports.run(started.id);
    expect(blocked).toHaveLength(2);
  });

  it('refuses unknown kinds and modes before storing anything', async() => {
    await expect(imports.start('zed', 'passwords', 'merge', 'x')).rejects.toMatchObject({ statusCode: 404 });
    await expect(imports.start('zed', 'following', 'replace', 'x')).rejects.toMatchObject({ statusCode: 400 });
    expect(added).toEqual([]);
  });
});
