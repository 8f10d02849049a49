/**
 * The web app's lists, filters and search pages over plain HTTP, and the live updates of its public
 * timelines: each page acts through the same services as the Mastodon API (what a form does shows in
 * the API's answers), and three users check the privacy of the pages (nobody sees or changes
 * another's lists or filters: 404, as an unknown one).
 */
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { eventually } from '../../support/eventually';
import { signup, type Session } from '../../support/local-actors';

const HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/** The events of a live stream as they arrive. */
interface LiveEvents {
  events: { event: string; data: Record<string, string> }[];
  close: () => Promise<void>;
}

describe('the web app\'s lists, filters, search and live public timelines', () => {
  let server: FedpodServer;
  let alice: Session;
  let bob: Session;
  let carol: Session;

  const cookieOf = (session: Session): string => `fedpod_web_session=${session.token}`;

  const page = async(path: string, session?: Session): Promise<Response> =>
    fetch(`${server.baseUrl}${path}`, { redirect: 'manual', headers: { accept: HTML, ...session ? { cookie: cookieOf(session) } : {}}});

  const html = async(path: string, session?: Session): Promise<string> => {
    const response = await page(path, session);
    expect(response.status).toBe(200);
    return response.text();
  };

  const formKey = async(session: Session): Promise<string> => {
    const key = /name="csrf" value="([^"]+)"/u.exec(await html('web/home', session))?.[1];
    expect(key).toBeDefined();
    return key!;
  };

  const post = async(path: string, session: Session, fields: Record<string, string> | [string, string][]): Promise<Response> =>
    fetch(`${server.baseUrl}${path}`, { method: 'POST', redirect: 'manual', body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieOf(session) }});

  const api = async<T>(path: string, session: Session, init: { method?: string; body?: unknown } = {}): Promise<T> => {
    const response = await fetch(`${server.baseUrl}${path}`, { method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${session.token}`, ...init.body === undefined ? {} : { 'content-type': 'application/json' }},
      ...init.body === undefined ? {} : { body: JSON.stringify(init.body) }});
    expect(response.status).toBe(200);
    return await response.json() as T;
  };

  const postStatus = async(session: Session, status: string): Promise<{ id: string; url: string; uri: string }> =>
    api('api/v1/statuses', session, { method: 'POST', body: { status, visibility: 'public' }});

  /** Opens the reader's live stream (with the page's `query`) and collects its events. */
  const live = async(session: Session, query: string): Promise<LiveEvents> => {
    const controller = new AbortController();
    const response = await fetch(`${server.baseUrl}web/live${query}`, { headers: { cookie: cookieOf(session) }, signal: controller.signal });
    expect(response.status).toBe(200);
    const events: LiveEvents['events'] = [];
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const reading = (async(): Promise<void> => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) {
            return;
          }
          buffer += decoder.decode(value, { stream: true });
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.+)$/mu.exec(block)?.[1];
            const data = /^data: (.+)$/mu.exec(block)?.[1];
            if (event && data) {
              events.push({ event, data: JSON.parse(data) as Record<string, string> });
            }
            end = buffer.indexOf('\n\n');
          }
        }
      } catch {
        // Aborted.
      }
    })();
    return { events, close: async(): Promise<void> => {
      controller.abort();
      await reading;
    } };
  };

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
    alice = await signup(server.baseUrl, 'alice');
    bob = await signup(server.baseUrl, 'bob');
    carol = await signup(server.baseUrl, 'carol');
  }, 240_000);

  afterAll(async() => {
    await server?.stop();
  });

  it('sends an anonymous reader from the lists and filters pages to the login, and lets anyone search', async() => {
    for (const path of [ 'web/lists', 'web/filters' ]) {
      const response = await page(path);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(`${server.baseUrl}auth/login?next=${encodeURIComponent(path)}`);
    }
    const search = await html('web/search?q=bob');
    expect(search).toContain('web/@bob');
  });

  it('creates, fills, renames and deletes a list from its pages, as the API sees it; nobody else sees or changes it', async() => {
    const key = await formKey(alice);
    expect((await post('web/follow', alice, { csrf: key, back: 'web/home', handle: '@bob' })).status).toBe(303);
    const created = await post('web/lists', alice, { csrf: key, title: 'Friends', replies_policy: 'list', exclusive: 'false' });
    expect(created.status).toBe(303);
    const listPath = created.headers.get('location')!.slice(server.baseUrl.length);
    expect(listPath).toMatch(/^web\/lists\/[\w-]+$/u);
    const id = listPath.split('/').pop()!;
    expect((await api<{ id: string; title: string }[]>('api/v1/lists', alice)).map((list): string => list.title)).toEqual([ 'Friends' ]);

    // Bob is offered (alice follows him); carol is not. A follow is accepted through the queue, so wait for it as a client would.
    const bobAccount = await api<{ id: string }>('api/v1/accounts/lookup?acct=bob', alice);
    const carolAccount = await api<{ id: string }>('api/v1/accounts/lookup?acct=carol', alice);
    await eventually(async() => (await api<{ following: boolean }[]>(`api/v1/accounts/relationships?id[]=${bobAccount.id}`, alice))[0]?.following === true,
      30_000);
    const listPage = await html(listPath, alice);
    expect(listPage).toContain(`<option value="${bobAccount.id}">`);
    expect(listPage).not.toContain(`<option value="${carolAccount.id}">`);
    const notFollowed = await post(`${listPath}/add`, alice, { csrf: key, account_id: carolAccount.id });
    expect(notFollowed.status).toBe(422);
    expect((await post(`${listPath}/add`, alice, { csrf: key, account_id: bobAccount.id })).status).toBe(303);
    expect((await api<{ id: string }[]>(`api/v1/lists/${id}/accounts`, alice)).map((account): string => account.id)).toEqual([ bobAccount.id ]);

    // Bob's post is on the list's timeline page.
    await postStatus(bob, 'Bob writes for the list');
    await eventually(async() => (await html(listPath, alice)).includes('Bob writes for the list'), 30_000);

    // Another user: the list's page and its forms are 404, as an unknown list's; the list stays as it is.
    const carolsKey = await formKey(carol);
    expect((await page(listPath, carol)).status).toBe(404);
    expect((await post(`${listPath}/delete`, carol, { csrf: carolsKey })).status).toBe(404);
    expect((await post(`${listPath}/update`, carol, { csrf: carolsKey, title: 'Taken' })).status).toBe(404);
    expect(await html('web/lists', carol)).not.toContain('Friends');
    expect((await page('web/lists/00000000-0000-7000-8000-000000000000', alice)).status).toBe(404);

    const renamed = await post(`${listPath}/update`, alice, [[ 'csrf', key ], [ 'title', 'Close friends' ], [ 'replies_policy', 'none' ],
      [ 'exclusive', 'false' ], [ 'exclusive', 'true' ]]);
    expect(renamed.status).toBe(303);
    expect(await api('api/v1/lists/' + id, alice)).toMatchObject({ title: 'Close friends', replies_policy: 'none', exclusive: true });
    expect(await html('web/lists', alice)).toContain('Close friends');

    expect((await post(`${listPath}/remove`, alice, { csrf: key, account_id: bobAccount.id })).status).toBe(303);
    expect(await api(`api/v1/lists/${id}/accounts`, alice)).toEqual([]);
    const deleted = await post(`${listPath}/delete`, alice, { csrf: key });
    expect(deleted.headers.get('location')).toBe(`${server.baseUrl}web/lists`);
    expect(await api('api/v1/lists', alice)).toEqual([]);
  }, 120_000);

  it('keeps a keyword filter made on its page: matching posts folded as "Filtered: <title>", or hidden; only for its owner', async() => {
    const key = await formKey(alice);
    const created = await post('web/filters', alice, [[ 'csrf', key ], [ 'title', 'Dragons' ], [ 'keyword_0', 'dragon' ],
      [ 'whole_word_0', 'true' ], [ 'keyword_1', '' ], [ 'context', 'public' ], [ 'context', 'home' ], [ 'filter_action', 'warn' ],
      [ 'expires_in', 'never' ]]);
    expect(created.status).toBe(303);
    const filterPath = created.headers.get('location')!.slice(server.baseUrl.length);
    const id = filterPath.split('/').pop()!;
    const [ filter ] = await api<{ id: string; title: string; keywords: { id: string; keyword: string; whole_word: boolean }[] }[]>(
      'api/v2/filters', alice);
    expect(filter).toMatchObject({ id, title: 'Dragons', context: [ 'public', 'home' ], filter_action: 'warn', expires_at: null });
    expect(filter.keywords).toEqual([ expect.objectContaining({ keyword: 'dragon', whole_word: true }) ]);

    await postStatus(bob, 'A dragon flew over the town');
    await postStatus(bob, 'The dragonfly stayed');
    const local = async(session: Session): Promise<string> => html('web/local', session);
    await eventually(async() => (await local(alice)).includes('The dragonfly stayed'), 30_000);
    const folded = await local(alice);
    expect(folded).toMatch(/<details class="filtered"><summary>Filtered: Dragons<\/summary>\s*<article[^>]*>[\s\S]*A dragon flew over the town/u);
    // Whole word: the dragonfly is no dragon.
    expect(folded).not.toMatch(/Filtered: Dragons<\/summary>\s*<article[^>]*>(?:(?!<\/article>)[\s\S])*The dragonfly/u);
    // Nobody else's timeline is folded.
    expect(await local(carol)).not.toContain('Filtered: Dragons');

    // Another user: the filter's page and forms are 404, and the filter stays.
    const carolsKey = await formKey(carol);
    expect((await page(filterPath, carol)).status).toBe(404);
    expect((await post(`${filterPath}/delete`, carol, { csrf: carolsKey })).status).toBe(404);
    expect(await html('web/filters', carol)).not.toContain('Dragons');

    // Edited on its page: not a whole word any more, a second keyword, hidden.
    const edit = await html(filterPath, alice);
    expect(edit).toContain(`name="keyword_id_0" value="${filter.keywords[0].id}"`);
    const changed = await post(`${filterPath}/update`, alice, [[ 'csrf', key ], [ 'title', 'Dragons' ], [ 'keyword_id_0', filter.keywords[0].id ],
      [ 'keyword_0', 'dragon' ], [ 'keyword_1', 'wyvern' ], [ 'whole_word_1', 'true' ], [ 'context', 'public' ], [ 'filter_action', 'hide' ],
      [ 'expires_in', '' ]]);
    expect(changed.status).toBe(303);
    const after = await api<{ filter_action: string; keywords: { keyword: string; whole_word: boolean }[] }>(`api/v2/filters/${id}`, alice);
    expect(after.filter_action).toBe('hide');
    expect(after.keywords.map(({ keyword, whole_word }): string => `${keyword} ${whole_word}`)).toEqual([ 'dragon false', 'wyvern true' ]);
    const hidden = await local(alice);
    expect(hidden).not.toContain('A dragon flew over the town');
    expect(hidden).not.toContain('The dragonfly stayed');
    expect(await local(carol)).toContain('A dragon flew over the town');

    expect((await post(`${filterPath}/delete`, alice, { csrf: key })).status).toBe(303);
    expect(await api('api/v2/filters', alice)).toEqual([]);
  }, 120_000);

  it('finds people, posts by URL and hashtags, each linked to its page in the app', async() => {
    const status = await postStatus(bob, 'Searching for #Lighthouses today');
    const people = await html('web/search?q=%40bob', alice);
    expect(people).toContain(`href="${server.baseUrl}web/@bob"`);
    await eventually(async() => (await html('web/search?q=%23lighthou&type=hashtags', alice)).includes(`href="${server.baseUrl}web/tags/lighthouses"`),
      30_000);
    const byUrl = await html(`web/search?q=${encodeURIComponent(status.uri)}`, alice);
    expect(byUrl).toContain(`id="status-${status.id}"`);
    expect(byUrl).toContain('Searching for');
    const nothing = await html('web/search?q=%40nobody-here', alice);
    expect(nothing).toContain('Nothing found.');
  }, 60_000);

  it('streams the public timeline a page shows: local, federated and a hashtag, with the reader\'s filters', async() => {
    expect((await fetch(`${server.baseUrl}web/live?stream=user`, { headers: { cookie: cookieOf(alice) }})).status).toBe(400);
    expect((await fetch(`${server.baseUrl}web/live?stream=hashtag&tag=no%20tag`, { headers: { cookie: cookieOf(alice) }})).status).toBe(400);
    // The pages name their stream for the script.
    expect(await html('web/local', alice)).toContain('data-stream="public:local"');
    expect(await html('web/federated', alice)).toContain('data-stream="public"');
    expect(await html('web/tags/Harbour', alice)).toContain('data-stream="hashtag" data-tag="harbour"');

    const key = await formKey(carol);
    expect((await post('web/filters', carol, [[ 'csrf', key ], [ 'title', 'Boats' ], [ 'keyword_0', 'boat' ], [ 'whole_word_0', 'true' ],
      [ 'context', 'public' ], [ 'filter_action', 'warn' ], [ 'expires_in', 'never' ]])).status).toBe(303);
    const local = await live(alice, '?stream=public:local');
    const federated = await live(carol, '?stream=public');
    const tag = await live(alice, '?stream=hashtag&tag=harbour');
    try {
      const status = await postStatus(bob, 'A boat in the #Harbour');
      const arrived = (events: LiveEvents, stream: string): boolean =>
        events.events.some(({ event, data }): boolean => event === 'status' && data.stream === stream && data.id === status.id);
      await eventually(async() => arrived(local, 'public:local') && arrived(federated, 'public') && arrived(tag, 'hashtag'), 30_000);
      const html = (events: LiveEvents): string => events.events.find(({ data }): boolean => data.id === status.id)!.data.html;
      expect(html(local)).toContain('A boat in the');
      expect(html(local)).not.toContain('Filtered');
      // Carol's filter folds it on her stream, as on her page.
      expect(html(federated)).toContain('<summary>Filtered: Boats</summary>');
      // The form key in the rendered post is the reader's own.
      expect(html(tag)).toContain(`value="${await formKey(alice)}"`);
    } finally {
      await Promise.all([ local.close(), federated.close(), tag.close() ]);
    }
  }, 90_000);

  it('follows a hashtag from its page: its public posts come home; only the reader\'s own follow is shown', async() => {
    const key = await formKey(alice);
    expect(await html('web/tags/tea', alice)).toContain('>Follow hashtag</button>');
    expect(await html('web/tags/tea')).not.toContain('Follow hashtag');
    // A name no hashtag can have: the page as before, without a button.
    expect(await html('web/tags/no-tag', alice)).not.toContain('Follow hashtag');
    const followed = await post('web/tags/tea/follow', alice, { csrf: key, back: 'web/tags/tea' });
    expect(followed.status).toBe(303);
    expect(followed.headers.get('location')).toBe(`${server.baseUrl}web/tags/tea`);
    expect((await api<{ name: string }[]>('api/v1/followed_tags', alice)).map((tag): string => tag.name)).toEqual([ 'tea' ]);
    expect(await html('web/tags/tea', alice)).toContain('>Unfollow hashtag</button>');
    expect(await html('web/tags/tea', bob)).toContain('>Follow hashtag</button>');
    // Without the form key nothing changes.
    expect((await post('web/tags/tea/unfollow', alice, { back: 'web/tags/tea' })).status).toBe(403);
    expect((await api<unknown[]>('api/v1/followed_tags', alice)).length).toBe(1);

    // Carol, whom alice does not follow, posts with the tag: it is on alice's home page, not bob's.
    await postStatus(carol, 'Green #Tea for everyone');
    await eventually(async() => (await html('web/home', alice)).includes('Green'), 30_000);
    expect(await html('web/home', bob)).not.toContain('Green');
    expect((await post('web/tags/tea/unfollow', alice, { csrf: key, back: 'web/tags/tea' })).status).toBe(303);
    expect(await api<unknown[]>('api/v1/followed_tags', alice)).toEqual([]);
  });
});
