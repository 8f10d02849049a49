import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileChangeCounter } from '../../../../src/plugins/cluster/FileChangeCounter';
import { UserDomainBlocks } from '../../../../src/plugins/moderation/UserDomainBlocks';

describe('UserDomainBlocks', (): void => {
  let dataDir: string;
  let blocks: UserDomainBlocks;

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-user-domain-blocks-'));
    blocks = new UserDomainBlocks(dataDir);
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('covers the domain and its subdomains, for the user who blocked it only', async(): Promise<void> => {
    await blocks.add('alice', 'Example.COM');
    expect(await blocks.blocks('alice', 'https://example.com/users/bob')).toBe(true);
    expect(await blocks.blocks('alice', 'https://social.example.com:8443/users/bob')).toBe(true);
    expect(await blocks.blocks('alice', 'https://notexample.com/users/bob')).toBe(false);
    expect(await blocks.blocks('carol', 'https://example.com/users/bob')).toBe(false);
  });

  it('lists newest first, keeps one entry a domain, and removes', async(): Promise<void> => {
    const first = await blocks.add('alice', 'one.example');
    await blocks.add('alice', 'two.example');
    expect(await blocks.add('alice', 'ONE.example')).toEqual(first);
    expect((await blocks.list('alice')).map((block): string => block.domain)).toEqual([ 'two.example', 'one.example' ]);
    await blocks.remove('alice', 'one.example');
    expect((await blocks.list('alice')).map((block): string => block.domain)).toEqual([ 'two.example' ]);
    expect(await blocks.blocks('alice', 'https://one.example/x')).toBe(false);
  });

  it('holds a block made on another node at once, through the shared change counter', async(): Promise<void> => {
    const nodeA = new UserDomainBlocks(dataDir, new FileChangeCounter(dataDir, 'moderation'));
    const nodeB = new UserDomainBlocks(dataDir, new FileChangeCounter(dataDir, 'moderation'));
    // Both have read (and hold) alice's empty list before the change.
    expect(await nodeB.blocks('alice', 'https://spam.example/users/x')).toBe(false);
    await nodeA.add('alice', 'spam.example');
    expect(await nodeB.blocks('alice', 'https://spam.example/users/x')).toBe(true);
    await nodeB.remove('alice', 'spam.example');
    expect(await nodeA.blocks('alice', 'https://spam.example/users/x')).toBe(false);
    expect(await nodeA.list('alice')).toEqual([]);
  });

  it('refuses what is not a domain', async(): Promise<void> => {
    await expect(blocks.add('alice', 'not a domain')).rejects.toMatchObject({ statusCode: 400, errorCode: 'invalid_domain' });
  });
});
