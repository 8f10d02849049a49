import type { MastodonAccount } from '../../../../src/plugins/mastodon/AccountEntity';
import type { MastodonPoll, MastodonStatus } from '../../../../src/plugins/mastodon/StatusEntity';
import { renderNotification, renderStatus } from '../../../../src/handlers/webapp/StatusView';

const BASE = 'https://pod.example/';

function account(username: string, acct = username): MastodonAccount {
  return { id: username, username, acct, display_name: `<i>${username}</i>`, url: `${BASE}actors/${username}`,
    uri: `${BASE}actors/${username}` } as unknown as MastodonAccount;
}

function status(fields: Partial<MastodonStatus> = {}): MastodonStatus {
  return { id: 's1', uri: `${BASE}objects/1`, created_at: '2026-03-04T05:06:07.000Z', account: account('alice'),
    content: '<p>Hello <script>alert(1)</script><b>world</b><img src=x onerror=alert(2)></p>', visibility: 'public', sensitive: false,
    spoiler_text: '', media_attachments: [], replies_count: 0, reblogs_count: 0, favourites_count: 2, reblog: null, poll: null,
    favourited: false, reblogged: false, bookmarked: false, ...fields } as unknown as MastodonStatus;
}

const reader = { username: 'bob', webId: `${BASE}actors/bob`, formKey: 'key"1' };

describe('StatusView', (): void => {
  it('shows the content made safe, the author escaped, and no buttons to an anonymous reader', (): void => {
    const html = renderStatus({ base: BASE, back: 'web/local' }, status());
    expect(html).toContain('<b>world</b>');
    expect(html).not.toMatch(/<script|onerror|<img/u);
    expect(html).toContain('<strong>&lt;i&gt;alice&lt;/i&gt;</strong>');
    expect(html).toContain(`href="${BASE}web/@alice"`);
    expect(html).toContain(`href="${BASE}web/statuses/s1"`);
    expect(html).not.toContain('<form');
  });

  it('folds a content warning, hides sensitive media until opened, and shows alt text', (): void => {
    const html = renderStatus({ base: BASE, back: 'web/home' }, status({ spoiler_text: 'food <3', sensitive: true,
      media_attachments: [{ id: 'm', type: 'image', url: `${BASE}media/a.png`, preview_url: `${BASE}media/a-small.png`,
        description: 'A "cake"', remote_url: null, blurhash: null, meta: {}}, { id: 'n', type: 'image', url: 'javascript:alert(1)',
        preview_url: '', description: null, remote_url: null, blurhash: null, meta: {}}]}));
    expect(html).toContain('<details><summary>Content warning: food &lt;3</summary>');
    expect(html).toContain('<details class="sensitive"><summary>Sensitive media: show</summary>');
    expect(html).toContain(`<img src="${BASE}media/a-small.png" alt="A &quot;cake&quot;" loading="lazy">`);
    expect(html).toContain('<figcaption>Alt: A &quot;cake&quot;</figcaption>');
    expect(html).not.toContain('javascript:');
  });

  it('plays video and audio with the browser\'s controls, their description as text, and cuts several pictures to their focal points', (): void => {
    const attachment = (id: string, type: string, meta: Record<string, unknown> = {}, description: string | null = `The ${id}`) => ({ id, type,
      url: `${BASE}media/${id}`, preview_url: `${BASE}media/${id}-small.jpg`, description, remote_url: null, blurhash: null, meta });
    const html = renderStatus({ base: BASE, back: 'web/home' }, status({ sensitive: true, media_attachments: [
      attachment('field', 'image', { focus: { x: -0.5, y: 0.5 }}), attachment('kite', 'image', { focus: { x: '1" onload="x', y: 0 }}),
      attachment('clip', 'video'), attachment('song', 'audio', {}, null) ] as MastodonStatus['media_attachments'] }));
    expect(html).toContain('<details class="sensitive"><summary>Sensitive media: show</summary><div class="media-grid">');
    expect(html).toContain(`alt="The field" loading="lazy" style="object-position: 25% 25%">`);
    // A focal point that is not two numbers (another server's) cuts nothing and writes nothing into the page.
    expect(html).toContain(`alt="The kite" loading="lazy"><figcaption>`);
    expect(html).not.toContain('onload');
    expect(html).toContain(`<video controls preload="metadata" src="${BASE}media/clip" poster="${BASE}media/clip-small.jpg" aria-label="The clip">` +
      `<a href="${BASE}media/clip" rel="nofollow noopener noreferrer">The clip</a></video><figcaption>Description: The clip</figcaption>`);
    expect(html).toContain(`<audio controls preload="none" src="${BASE}media/song"><a href="${BASE}media/song" rel="nofollow noopener noreferrer">` +
      'A audio file</a></audio></figure>');
  });

  it('gives a reader forms that carry the form key and the page to come back to, Delete on their own only', (): void => {
    const context = { base: BASE, back: 'web/home', reader };
    const html = renderStatus(context, status({ favourited: true }));
    expect(html).toContain(`action="${BASE}web/statuses/s1/unfavourite"`);
    expect(html).toContain('aria-pressed="true">Like (2)</button>');
    expect(html).toContain('name="csrf" value="key&quot;1"');
    expect(html).toContain('name="back" value="web/home"');
    expect(html).not.toContain('/delete"');
    expect(renderStatus(context, status({ account: account('bob') }))).toContain(`action="${BASE}web/statuses/s1/delete"`);
    // Only public and unlisted posts can be boosted.
    expect(renderStatus(context, status({ visibility: 'private' }))).not.toContain('/reblog"');
  });

  const openPoll = (fields: Partial<MastodonPoll> = {}): MastodonPoll => ({ id: 's1', expires_at: '2026-03-05T05:06:07.000Z', expired: false,
    multiple: false, votes_count: 3, voters_count: 3, voted: false, own_votes: [], emojis: [],
    options: [{ title: 'Tea <b>', votes_count: 1 }, { title: 'Coffee', votes_count: 2 }], ...fields });

  it('gives a voter a poll form, and shows the counts only once they voted, to its author, or once it ended', (): void => {
    const context = { base: BASE, back: 'web/statuses/s1', reader };
    const form = renderStatus(context, status({ poll: openPoll() }), openPoll());
    expect(form).toContain(`action="${BASE}web/statuses/s1/vote"`);
    expect(form).toContain('<input type="radio" name="choices" value="0" required> Tea &lt;b&gt;');
    expect(form).not.toContain('(67%)');
    const several = renderStatus(context, status({ poll: openPoll() }), openPoll({ multiple: true }));
    expect(several).toContain('<input type="checkbox" name="choices" value="1">');
    const voted = renderStatus(context, status({ poll: openPoll() }), openPoll({ voted: true, own_votes: [ 1 ]}));
    expect(voted).toContain('<li>Coffee: 2 (67%) (your vote)</li>');
    expect(voted).not.toContain('/vote"');
    // In a list (no own votes read): the options, a link to vote, no counts.
    const listed = renderStatus(context, status({ poll: openPoll() }));
    expect(listed).not.toContain('(67%)');
    expect(listed).toContain(`<a href="${BASE}web/statuses/s1">Vote</a>`);
    expect(renderStatus({ base: BASE, back: 'web/local' }, status({ poll: openPoll() }))).not.toContain('(67%)');
    expect(renderStatus({ base: BASE, back: 'web/local' }, status({ poll: openPoll({ expired: true }) }))).toContain('Coffee: 2 (67%)');
    expect(renderStatus(context, status({ account: account('bob'), poll: openPoll() }), openPoll())).toContain('Coffee: 2 (67%)');
  });

  it('marks an edited status, and offers Edit on the reader\'s own and Report on anybody else\'s', (): void => {
    const context = { base: BASE, back: 'web/home', reader };
    const edited = renderStatus(context, status({ edited_at: '2026-03-04T06:00:00.000Z' }));
    expect(edited).toContain('<span class="edited">edited <time datetime="2026-03-04T06:00:00.000Z">');
    expect(edited).toContain(`href="${BASE}web/report?account_id=alice&amp;status_id=s1"`);
    expect(edited).not.toContain('/edit"');
    const own = renderStatus(context, status({ account: account('bob') }));
    expect(own).toContain(`href="${BASE}web/statuses/s1/edit"`);
    expect(own).not.toContain('web/report');
    expect(own).not.toContain('class="edited"');
  });

  it('shows who boosted above the original, and a follow request with its answers', (): void => {
    const context = { base: BASE, back: 'web/notifications', reader };
    const boost = renderStatus(context, status({ id: 'b1', account: account('carol'), reblog: status() }));
    expect(boost).toMatch(/carol.*boosted[\s\S]*alice/u);
    expect(boost).toContain('data-status="s1"');
    const request = renderNotification(context, { id: 'n1', type: 'follow_request', created_at: '2026-03-04T05:06:07.000Z',
      account: account('dave', 'dave@remote.example') });
    expect(request).toContain('asks to follow you');
    expect(request).toContain(`href="${BASE}web/@dave@remote.example"`);
    expect(request).toContain(`action="${BASE}web/accounts/dave/authorize"`);
    expect(request).toContain(`action="${BASE}web/accounts/dave/reject"`);
  });

  it('folds a post the reader\'s warn filters matched under "Filtered:" and their titles, escaped', (): void => {
    const filtered = [{ filter: { title: 'Spoilers <b>' }, keyword_matches: [ 'dragon' ], status_matches: null },
      { filter: { title: 'Games' }, keyword_matches: [ 'quest' ], status_matches: null }];
    const html = renderStatus({ base: BASE, back: 'web/local' }, status({ filtered }));
    expect(html).toMatch(/^<details class="filtered"><summary>Filtered: Spoilers &lt;b&gt;, Games<\/summary>\s*<article[\s\S]*<\/article><\/details>$/u);
    expect(renderStatus({ base: BASE, back: 'web/local' }, status({ filtered: []}))).toMatch(/^<article/u);
  });
});
