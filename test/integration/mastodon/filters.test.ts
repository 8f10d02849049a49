/**
 * Filters (v2, and v1: a keyword of a v2 filter each) through masto.js and megalodon on the default
 * setup: bob follows alice and filters her words; `warn` marks statuses with `filtered`, `hide` takes
 * them out, in the contexts the filter names only. Carol never reads or changes bob's filters.
 */
import type { mastodon } from 'masto';
import { eventually } from '../../support/eventually';
import { startWithUsers, type MastodonUsers } from '../../support/mastodon-users';

describe('Mastodon filters', () => {
  let users: MastodonUsers | undefined;
  let { tokens, masto, megalodon, readOnly, api } = {} as MastodonUsers;
  let warn: mastodon.v2.Filter;
  /** As the API sends it (masto.js's entities are camelCased). */
  let hide: { id: string; expires_at: string };

  const find = (statuses: mastodon.v1.Status[], text: string): mastodon.v1.Status | undefined =>
    statuses.find((status) => status.content.includes(text));

  beforeAll(async() => {
    users = await startWithUsers();
    ({ tokens, masto, megalodon, readOnly, api } = users);
    await users.follow('bob', 'alice');
    await masto.alice.v1.statuses.create({ status: 'I love broccoli soup #veg', visibility: 'public' });
    await masto.alice.v1.statuses.create({ status: 'Spoilers about the finale ahead', visibility: 'public' });
    await masto.alice.v1.statuses.create({ status: 'A calm day, nothing to report', visibility: 'public' });
    await eventually(async() => (await masto.bob.v1.timelines.home.list()).length >= 3);
  });

  afterAll(async() => {
    await users?.server.stop();
  });

  it('creates filters with keywords and answers them in Mastodon\'s shape', async() => {
    warn = await masto.bob.v2.filters.create({ title: 'Vegetables', context: [ 'home', 'public' ], filterAction: 'warn',
      keywordsAttributes: [{ keyword: 'broccoli', wholeWord: true }]});
    expect(warn).toMatchObject({ title: 'Vegetables', context: [ 'home', 'public' ], filterAction: 'warn', expiresAt: null,
      keywords: [{ keyword: 'broccoli', wholeWord: true }], statuses: []});
    expect(typeof warn.id).toBe('string');
    hide = (await api('/api/v2/filters', tokens.bob, { method: 'POST', body: new URLSearchParams([
      [ 'title', 'No spoilers' ], [ 'context[]', 'home' ], [ 'context[]', 'thread' ], [ 'filter_action', 'hide' ], [ 'expires_in', '86400' ],
      [ 'keywords_attributes[][keyword]', 'finale' ], [ 'keywords_attributes[][whole_word]', 'false' ],
    ]).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' }})).body as typeof hide;
    expect(hide).toMatchObject({ title: 'No spoilers', context: [ 'home', 'thread' ], filter_action: 'hide',
      keywords: [{ keyword: 'finale', whole_word: false }]});
    expect(Date.parse(hide.expires_at)).toBeGreaterThan(Date.now());
    expect((await megalodon.bob.getFilters()).data.map((filter) => filter.phrase).sort()).toEqual([ 'broccoli', 'finale' ]);
    expect((await masto.bob.v2.filters.list()).map((filter) => filter.id)).toEqual([ warn.id, hide.id ]);
  });

  it('warns of and hides statuses in the filters\' contexts only', async() => {
    const home = await masto.bob.v1.timelines.home.list();
    expect(find(home, 'broccoli')?.filtered).toEqual([ expect.objectContaining({ keywordMatches: [ 'broccoli' ], statusMatches: null,
      filter: expect.objectContaining({ id: warn.id, filterAction: 'warn' }) }) ]);
    expect(find(home, 'finale')).toBeUndefined();
    expect(find(home, 'calm day')?.filtered).toEqual([]);
    // Public has the warn filter only; account has none; alice never sees bob's filters.
    const publicTimeline = await masto.bob.v1.timelines.public.list();
    expect(find(publicTimeline, 'broccoli')?.filtered).toHaveLength(1);
    expect(find(publicTimeline, 'finale')).toBeDefined();
    expect(find(await masto.bob.v1.timelines.tag.$select('veg').list(), 'broccoli')?.filtered).toHaveLength(1);
    expect(find(await masto.bob.v1.accounts.$select('alice').statuses.list(), 'broccoli')?.filtered).toEqual([]);
    expect(find(await masto.alice.v1.timelines.home.list(), 'finale')).toBeDefined();
  });

  it('changes keywords and filters statuses by id', async() => {
    const keyword = await masto.bob.v2.filters.$select(warn.id).keywords.create({ keyword: 'calm', wholeWord: true });
    expect((await masto.bob.v2.filters.$select(warn.id).keywords.list()).map((entry) => entry.keyword)).toEqual([ 'broccoli', 'calm' ]);
    expect(find(await masto.bob.v1.timelines.home.list(), 'calm day')?.filtered?.[0].keywordMatches).toEqual([ 'calm' ]);
    await masto.bob.v2.filters.keywords.$select(keyword.id).update({ keyword: 'cal', wholeWord: true });
    expect(find(await masto.bob.v1.timelines.home.list(), 'calm day')?.filtered).toEqual([]);
    await masto.bob.v2.filters.keywords.$select(keyword.id).remove();
    expect((await masto.bob.v2.filters.$select(warn.id).fetch()).keywords.map((entry) => entry.keyword)).toEqual([ 'broccoli' ]);
    const calm = find(await masto.bob.v1.timelines.home.list(), 'calm day')!;
    const entry = (await api(`/api/v2/filters/${hide.id}/statuses`, tokens.bob, { method: 'POST',
      body: JSON.stringify({ status_id: calm.id }) })).body as { id: string; status_id: string };
    expect(entry.status_id).toBe(calm.id);
    expect(find(await masto.bob.v1.timelines.home.list(), 'calm day')).toBeUndefined();
    expect((await api(`/api/v2/filter_statuses/${entry.id}`, tokens.bob)).body).toEqual(entry);
    expect((await api(`/api/v2/filter_statuses/${entry.id}`, tokens.bob, { method: 'DELETE' })).status).toBe(200);
    expect(find(await masto.bob.v1.timelines.home.list(), 'calm day')).toBeDefined();
  });

  it('changes and ends filters', async() => {
    const changed = await masto.bob.v2.filters.$select(hide.id).update({ context: [ 'public' ], filterAction: 'warn' });
    expect(changed).toMatchObject({ id: hide.id, title: 'No spoilers', context: [ 'public' ], filterAction: 'warn' });
    expect(find(await masto.bob.v1.timelines.home.list(), 'finale')).toBeDefined();
    await masto.bob.v2.filters.$select(hide.id).remove();
    expect((await masto.bob.v2.filters.list()).map((filter) => filter.id)).toEqual([ warn.id ]);
  });

  it('refuses another user\'s filters, a missing token, a read-only token\'s writes and bad values', async() => {
    for (const [ path, method ] of [ [ `/api/v2/filters/${warn.id}`, 'GET' ], [ `/api/v2/filters/${warn.id}`, 'DELETE' ],
      [ `/api/v2/filters/${warn.id}/keywords`, 'GET' ], [ `/api/v2/filter_keywords/${warn.keywords[0].id}`, 'GET' ],
      [ `/api/v2/filter_keywords/${warn.keywords[0].id}`, 'DELETE' ] ]) {
      const answer = await api(path, tokens.carol, { method });
      expect([ path, method, answer.status, answer.body ]).toEqual([ path, method, 404, { error: 'Record not found' }]);
    }
    expect(await masto.carol.v2.filters.list()).toEqual([]);
    expect((await api('/api/v2/filters', undefined)).status).toBe(401);
    expect((await api('/api/v2/filters', readOnly)).status).toBe(200);
    expect((await api('/api/v2/filters', readOnly, { method: 'POST', body: JSON.stringify({ title: 'x', context: [ 'home' ]}) })).status)
      .toBe(403);
    expect((await api(`/api/v2/filters/${warn.id}`, readOnly, { method: 'DELETE' })).status).toBe(403);
    for (const body of [ { title: 'x' }, { title: 'x', context: [ 'everywhere' ]}, { title: 'x', context: [ 'home' ], filter_action: 'burn' },
      { title: ' ', context: [ 'home' ]}, { title: 'x', context: [ 'home' ], keywords_attributes: [{ keyword: '' }]} ]) {
      expect([ body, (await api('/api/v2/filters', tokens.bob, { method: 'POST', body: JSON.stringify(body) })).status ]).toEqual([ body, 422 ]);
    }
    expect((await masto.bob.v2.filters.list()).map((filter) => filter.id)).toEqual([ warn.id ]);
  });

  it('writes v1 filters as v2 filters of one keyword, titled by their phrase', async() => {
    const finale = await masto.bob.v1.filters.create({ phrase: 'finale', context: [ 'home' ], irreversible: true, wholeWord: false });
    expect(finale).toMatchObject({ phrase: 'finale', context: [ 'home' ], irreversible: true, wholeWord: false, expiresAt: null });
    const made = (await masto.bob.v2.filters.list()).find((filter) => filter.title === 'finale');
    expect(made).toMatchObject({ context: [ 'home' ], filterAction: 'hide', keywords: [{ id: finale.id, keyword: 'finale', wholeWord: false }]});
    expect(find(await masto.bob.v1.timelines.home.list(), 'finale')).toBeUndefined();
    expect((await megalodon.bob.getFilter(finale.id)).data).toMatchObject({ id: finale.id, phrase: 'finale', irreversible: true });

    const changed = (await megalodon.bob.updateFilter(finale.id, 'finales', [ 'home', 'public' ], { irreversible: false, whole_word: true })).data;
    expect(changed).toMatchObject({ id: finale.id, phrase: 'finales', context: [ 'home', 'public' ], irreversible: false, whole_word: true });
    expect((await masto.bob.v2.filters.$select(made!.id).fetch())).toMatchObject({ title: 'finales', filterAction: 'warn',
      context: [ 'home', 'public' ], keywords: [{ keyword: 'finales', wholeWord: true }]});
    expect(find(await masto.bob.v1.timelines.home.list(), 'finale')?.filtered).toEqual([]);

    // The keyword of a filter with two: its filter's fields are the other keyword's too, so they stay.
    const soup = await masto.bob.v2.filters.$select(warn.id).keywords.create({ keyword: 'soup', wholeWord: true });
    expect((await megalodon.bob.getFilters()).data.map((filter) => filter.phrase).sort()).toEqual([ 'broccoli', 'finales', 'soup' ]);
    const refused = await api(`/api/v1/filters/${soup.id}`, tokens.bob, { method: 'PUT', body: JSON.stringify({ phrase: 'soup', context: [ 'thread' ]}) });
    expect(refused.status).toBe(422);
    expect((refused.body as { error: string }).error).toContain('more than one filter keyword');
    expect(await masto.bob.v2.filters.$select(warn.id).fetch()).toMatchObject({ title: 'Vegetables', context: [ 'home', 'public' ],
      keywords: [{ keyword: 'broccoli' }, { keyword: 'soup', wholeWord: true }]});

    // Removing a v1 filter removes its keyword, and the v2 filter it emptied.
    expect((await api(`/api/v1/filters/${soup.id}`, tokens.bob, { method: 'DELETE' })).body).toEqual({});
    expect((await masto.bob.v2.filters.$select(warn.id).fetch()).keywords.map((entry) => entry.keyword)).toEqual([ 'broccoli' ]);
    await masto.bob.v1.filters.$select(finale.id).remove();
    expect((await masto.bob.v2.filters.list()).map((filter) => filter.id)).toEqual([ warn.id ]);
    expect((await api(`/api/v1/filters/${finale.id}`, tokens.bob)).status).toBe(404);
  });

  it('refuses v1 filter writes of another user, without a token or the write scope, and bad values', async() => {
    const own = (await masto.bob.v2.filters.$select(warn.id).fetch()).keywords[0];
    for (const [ method, body ] of [ [ 'GET' ], [ 'PUT', { phrase: 'mine', context: [ 'home' ]}], [ 'DELETE' ] ] as const) {
      const init = { method, ...body ? { body: JSON.stringify(body) } : {} };
      const answer = await api(`/api/v1/filters/${own.id}`, tokens.carol, init);
      expect([ method, answer.status, answer.body ]).toEqual([ method, 404, { error: 'Record not found' }]);
      expect([ method, (await api(`/api/v1/filters/${own.id}`, undefined, init)).status ]).toEqual([ method, 401 ]);
    }
    expect((await api('/api/v1/filters', undefined, { method: 'POST', body: JSON.stringify({ phrase: 'x', context: [ 'home' ]}) })).status)
      .toBe(401);
    expect((await api(`/api/v1/filters/${own.id}`, readOnly)).status).toBe(200);
    expect((await api('/api/v1/filters', readOnly, { method: 'POST', body: JSON.stringify({ phrase: 'x', context: [ 'home' ]}) })).status)
      .toBe(403);
    expect((await api(`/api/v1/filters/${own.id}`, readOnly, { method: 'DELETE' })).status).toBe(403);
    for (const body of [ { context: [ 'home' ]}, { phrase: 'x' }, { phrase: 'x', context: [ 'everywhere' ]}, { phrase: ' ', context: [ 'home' ]},
      { phrase: 'x', context: [ 'home' ], expires_in: -5 } ]) {
      const answer = await api('/api/v1/filters', tokens.bob, { method: 'POST', body: JSON.stringify(body) });
      expect([ body, answer.status, typeof (answer.body as { error?: unknown }).error ]).toEqual([ body, 422, 'string' ]);
    }
    expect((await api(`/api/v1/filters/${own.id}`, tokens.bob, { method: 'PUT', body: JSON.stringify({ phrase: '', context: [ 'home' ]}) }))
      .status).toBe(422);
    expect(await masto.bob.v2.filters.list()).toEqual([ expect.objectContaining({ id: warn.id, title: 'Vegetables',
      keywords: [ expect.objectContaining({ id: own.id, keyword: 'broccoli' }) ]}) ]);
    expect(await masto.carol.v1.filters.list()).toEqual([]);
  });
});
