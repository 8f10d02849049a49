import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MastodonFilters } from '../../../../src/plugins/mastodon/MastodonFilters';
import type { MastodonStatus } from '../../../../src/plugins/mastodon/StatusEntity';

const status = (id: string, content: string, extra: Partial<MastodonStatus> = {}): MastodonStatus =>
  ({ id, content, spoiler_text: '', poll: null, media_attachments: [], filtered: [], reblog: null, ...extra } as unknown as MastodonStatus);

describe('MastodonFilters', (): void => {
  let dir: string;
  let filters: MastodonFilters;

  beforeEach((): void => {
    dir = mkdtempSync(path.join(tmpdir(), 'fedpod-filters-'));
    filters = new MastodonFilters(dir);
  });

  afterEach((): void => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('matches keywords in the text without markup, whole words between letters of any script', async(): Promise<void> => {
    await filters.create('bob', { title: 'words', context: [ 'home' ]}, [ { keyword: 'café', whole_word: true }, { keyword: 'ring', whole_word: false } ]);
    const shown = await filters.apply('bob', [
      status('1', '<p>Un <strong>Café</strong>, please</p>'),
      status('2', '<p>cafés everywhere</p>'),
      status('3', '<p>a b<span>r</span>ing</p>'),
      status('4', '<p>springtime</p>'),
      status('5', '<p>nothing</p>', { spoiler_text: 'café talk' }),
    ], 'home');
    expect(shown.map((entry): unknown => [ entry.id, entry.filtered.map((result): unknown => (result as { keyword_matches: unknown }).keyword_matches) ]))
      .toEqual([ [ '1', [[ 'café' ]] ], [ '2', [] ], [ '3', [] ], [ '4', [[ 'ring' ]] ], [ '5', [[ 'café' ]] ] ]);
  });

  it('hides with hide, in its contexts only, and stops when it expires', async(): Promise<void> => {
    const filter = await filters.create('bob', { title: 'gone', context: [ 'public' ], filter_action: 'hide', expires_in: 60 },
      [{ keyword: 'secret', whole_word: true }]);
    const statuses = [ status('1', 'a secret'), status('2', 'open') ];
    expect((await filters.apply('bob', statuses, 'public')).map((entry): string => entry.id)).toEqual([ '2' ]);
    expect((await filters.apply('bob', statuses, 'home')).map((entry): string => entry.id)).toEqual([ '1', '2' ]);
    expect((await filters.apply('alice', statuses, 'public')).map((entry): string => entry.id)).toEqual([ '1', '2' ]);
    const later = Date.parse(filter.expires_at!) + 1;
    expect((await filters.apply('bob', statuses, 'public', later)).map((entry): string => entry.id)).toEqual([ '1', '2' ]);
  });

  it('matches a reblog by what it reblogs, and statuses by id', async(): Promise<void> => {
    const filter = await filters.create('bob', { title: 'these', context: [ 'home' ]}, []);
    await filters.addStatus('bob', filter.id, 'inner');
    const reblog = status('outer', '', { reblog: status('inner', 'text') });
    const [ shown ] = await filters.apply('bob', [ reblog ], 'home');
    expect(shown.filtered).toEqual([ expect.objectContaining({ status_matches: [ 'inner' ], keyword_matches: null }) ]);
    expect(shown.reblog!.filtered).toEqual(shown.filtered);
    await expect(filters.addStatus('bob', filter.id, 'inner')).rejects.toThrow('already');
  });

  it('keeps each user\'s filters, keywords and statuses their own', async(): Promise<void> => {
    const filter = await filters.create('bob', { title: 'mine', context: [ 'home' ]}, [{ keyword: 'x', whole_word: true }]);
    await expect(filters.get('alice', filter.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(filters.holderOf('alice', 'keywords', filter.keywords[0].id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(filters.update('alice', filter.id, { title: 'theirs' })).rejects.toMatchObject({ statusCode: 404 });
    expect((await filters.get('bob', filter.id)).title).toBe('mine');
  });

  it('changes, adds and removes keywords of a filter in one update', async(): Promise<void> => {
    const filter = await filters.create('bob', { title: 'k', context: [ 'home' ]}, [ { keyword: 'a', whole_word: true }, { keyword: 'b', whole_word: true } ]);
    const [ first, second ] = filter.keywords;
    const changed = await filters.update('bob', filter.id, { expires_in: null }, [
      { id: first.id, keyword: 'aa' }, { id: second.id, destroy: true }, { keyword: 'c', whole_word: false },
    ]);
    expect(changed.keywords.map((keyword): unknown => [ keyword.keyword, keyword.whole_word ])).toEqual([ [ 'aa', true ], [ 'c', false ] ]);
    expect(changed.expires_at).toBeNull();
    await expect(filters.update('bob', filter.id, {}, [{ id: 'nope', keyword: 'z' }])).rejects.toMatchObject({ statusCode: 404 });
    await expect(filters.update('bob', filter.id, { context: [] })).rejects.toMatchObject({ statusCode: 422 });
  });

  it('changes a v1 filter\'s keyword, and its filter\'s fields only when no other keyword shares them', async(): Promise<void> => {
    const single = await filters.create('bob', { title: 'one', context: [ 'home' ]}, [{ keyword: 'one', whole_word: true }]);
    const changed = await filters.changeV1('bob', single.keywords[0].id, { keyword: 'uno', whole_word: false },
      { title: 'uno', context: [ 'thread' ], filter_action: 'hide' });
    expect(changed.filter).toMatchObject({ id: single.id, title: 'uno', context: [ 'thread' ], filter_action: 'hide' });
    expect(changed.keyword).toEqual({ id: single.keywords[0].id, keyword: 'uno', whole_word: false });

    const shared = await filters.create('bob', { title: 'two', context: [ 'home' ]}, [ { keyword: 'a', whole_word: true }, { keyword: 'b', whole_word: true } ]);
    await expect(filters.changeV1('bob', shared.keywords[0].id, { keyword: 'a' }, { title: 'a' })).rejects.toMatchObject({ statusCode: 422 });
    // The same fields again change nothing of the filter: the keyword alone may change.
    expect((await filters.changeV1('bob', shared.keywords[0].id, { whole_word: false }, { title: 'two', context: [ 'home' ]})).keyword)
      .toMatchObject({ keyword: 'a', whole_word: false });
    await expect(filters.changeV1('alice', shared.keywords[0].id, { keyword: 'x' }, {})).rejects.toMatchObject({ statusCode: 404 });
    expect((await filters.get('bob', shared.id)).title).toBe('two');
  });

  it('removes a v1 filter\'s keyword, and the filter it leaves empty', async(): Promise<void> => {
    const single = await filters.create('bob', { title: 'one', context: [ 'home' ]}, [{ keyword: 'one', whole_word: true }]);
    const shared = await filters.create('bob', { title: 'two', context: [ 'home' ]}, [ { keyword: 'a', whole_word: true }, { keyword: 'b', whole_word: true } ]);
    const withStatus = await filters.create('bob', { title: 'three', context: [ 'home' ]}, [{ keyword: 'c', whole_word: true }]);
    await filters.addStatus('bob', withStatus.id, '0190a8b0-0000-7000-8000-000000000000');
    await expect(filters.deleteV1('alice', single.keywords[0].id)).rejects.toMatchObject({ statusCode: 404 });
    for (const filter of [ single, shared, withStatus ]) {
      await filters.deleteV1('bob', filter.keywords[0].id);
    }
    expect((await filters.all('bob')).map((filter): unknown => [ filter.title, filter.keywords.map((keyword): string => keyword.keyword) ]))
      .toEqual([ [ 'two', [ 'b' ]], [ 'three', []] ]);
  });
});
