import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileChangeCounter } from '../../../../src/plugins/cluster/FileChangeCounter';
import { domainBlocksFromCsv, domainBlocksToCsv } from '../../../../src/plugins/moderation/DomainBlockCsv';
import { DomainBlocks, normalDomain } from '../../../../src/plugins/moderation/DomainBlocks';

describe('DomainBlocks', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'domain-blocks-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('covers the domain and its subdomains, not its look-alikes, by host name of a URL or a host', async() => {
    const blocks = new DomainBlocks(dir);
    await blocks.put({ domain: 'Example.COM.', severity: 'suspend' });
    expect(await blocks.refuses('example.com')).toBe(true);
    expect(await blocks.refuses('social.example.com')).toBe(true);
    expect(await blocks.refuses('notexample.com')).toBe(false);
    expect((await blocks.blockOf('https://a.b.example.com:8443/users/x'))?.domain).toBe('example.com');
    expect(await blocks.hidesFromPublic('https://example.org/x')).toBe(false);
  });

  it('keeps its blocks across instances, and another node\'s change is seen at once through the shared counter', async() => {
    const here = new DomainBlocks(dir, new FileChangeCounter(dir, 'moderation-changes'));
    const there = new DomainBlocks(dir, new FileChangeCounter(dir, 'moderation-changes'));
    expect(await there.refuses('spam.example')).toBe(false);
    await here.put({ domain: 'spam.example', severity: 'suspend', publicComment: 'spam' });
    expect(await there.refuses('spam.example')).toBe(true);
    await here.put({ domain: 'spam.example', severity: 'silence' });
    expect(await there.blockOf('spam.example')).toMatchObject({ severity: 'silence', publicComment: 'spam' });
    await here.remove('spam.example');
    expect(await there.blockOf('spam.example')).toBeUndefined();
    expect(await new DomainBlocks(dir).list()).toEqual([]);
  });

  it('refuses what is not a domain, an unknown severity and long comments (400)', async() => {
    const blocks = new DomainBlocks(dir);
    expect(() => normalDomain('not a domain')).toThrow(expect.objectContaining({ statusCode: 400 }));
    expect(() => normalDomain('a/b')).toThrow(expect.objectContaining({ statusCode: 400 }));
    expect(normalDomain('Bücher.example')).toBe('xn--bcher-kva.example');
    await expect(blocks.put({ domain: 'x.example', severity: 'ban' as 'noop' })).rejects.toMatchObject({ statusCode: 400 });
    await expect(blocks.put({ domain: 'x.example', publicComment: 'x'.repeat(1001) })).rejects.toMatchObject({ statusCode: 400 });
    expect(await blocks.list()).toEqual([]);
  });
});

describe('domain blocks as Mastodon\'s CSV', () => {
  it('reads its export (quoted fields, columns in any order) and writes it again', () => {
    const text = '#severity,#domain,#public_comment,#reject_media\r\nsilence,a.example,"loud, ""very""",true\r\nsuspend,b.example,,\r\n';
    const inputs = domainBlocksFromCsv(text);
    expect(inputs).toEqual([
      { domain: 'a.example', severity: 'silence', rejectMedia: true, rejectReports: false, obfuscate: false, publicComment: 'loud, "very"' },
      { domain: 'b.example', severity: 'suspend', rejectMedia: false, rejectReports: false, obfuscate: false },
    ]);
    const csv = domainBlocksToCsv(inputs.map((input) => ({ rejectMedia: false, rejectReports: false, obfuscate: false,
      severity: 'noop' as const, created: '', ...input })));
    expect(csv).toBe('#domain,#severity,#reject_media,#reject_reports,#public_comment,#obfuscate\n' +
      'a.example,silence,true,false,"loud, ""very""",false\nb.example,suspend,false,false,,false\n');
    expect(domainBlocksFromCsv(csv)).toEqual(inputs);
  });

  it('takes a plain list of domains as suspensions, and refuses an unknown severity', () => {
    expect(domainBlocksFromCsv('a.example\nb.example\n').map((input) => [ input.domain, input.severity ]))
      .toEqual([ [ 'a.example', 'suspend' ], [ 'b.example', 'suspend' ] ]);
    expect(() => domainBlocksFromCsv('#domain,#severity\nx.example,explode\n')).toThrow(/Row 1: unknown severity/u);
  });
});
