import { linkTagsInHtml, tagsInHtml } from '../../../../../src/plugins/activitypub/outbound/TextTags';

const links = {
  mentions: new Map([[ 'bob', 'https://pod.example/actors/bob' ], [ 'carol@social.example', 'https://social.example/users/carol' ]]),
  hashtag: (name: string): string => `https://pod.example/tags/${encodeURIComponent(name.toLowerCase())}`,
};

describe('mentions and hashtags in a post\'s text', (): void => {
  it('finds local and remote mentions and hashtags, each once, in order', (): void => {
    expect(tagsInHtml('<p>@bob hi @Carol@Social.Example, #Fedi and #fedi again; @bob</p>')).toEqual({
      mentions: [{ acct: 'bob' }, { acct: 'carol@social.example' }],
      hashtags: [ 'Fedi' ],
    });
  });

  it('takes Unicode hashtags, not numbers', (): void => {
    expect(tagsInHtml('#日本語 #Überall #café_2 #42 #x1').hashtags).toEqual([ '日本語', 'Überall', 'café_2', 'x1' ]);
  });

  it('does not take e-mail addresses for mentions, nor URLs\' fragments or character references for hashtags', (): void => {
    expect(tagsInHtml('mail me@example.org or see https://example.org/@bob#top and page#part, it&#39;s &#x27;x&#x27;'))
      .toEqual({ mentions: [], hashtags: []});
  });

  it('leaves links, code, preformatted text and comments alone, and reads attributes as no text', (): void => {
    expect(tagsInHtml('<a href="https://x.example/#tag">@bob #linked</a><code>@carol@social.example #code</code>' +
      '<pre><b>#pre</b></pre><!-- #comment --><span title="#attr > @bob">text</span>')).toEqual({ mentions: [], hashtags: []});
  });

  it('links mentions it knows and every hashtag as Mastodon does, the rest of the HTML as it was', (): void => {
    expect(linkTagsInHtml('<p class="x">Hi @bob, @carol@social.example and @dave! #Fedi <code>#not</code></p>', links)).toBe(
      '<p class="x">Hi <span class="h-card"><a href="https://pod.example/actors/bob" class="u-url mention">@<span>bob</span></a></span>, ' +
      '<span class="h-card"><a href="https://social.example/users/carol" class="u-url mention">@<span>carol</span></a></span> ' +
      'and @dave! <a href="https://pod.example/tags/fedi" class="mention hashtag" rel="tag">#<span>Fedi</span></a> <code>#not</code></p>',
    );
  });

  it('reads plain text as HTML without tags', (): void => {
    expect(linkTagsInHtml('#a', links)).toBe('<a href="https://pod.example/tags/a" class="mention hashtag" rel="tag">#<span>a</span></a>');
  });
});
