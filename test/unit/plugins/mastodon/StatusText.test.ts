import { mentionsIn, plainTextToHtml } from '../../../../src/plugins/mastodon/StatusText';

describe('status text', (): void => {
  it('makes paragraphs and line breaks, escaped, with links', (): void => {
    expect(plainTextToHtml('a <b> & c\nnext line\n\nhttps://example.org/x?y=1&z=2.'))
      .toBe('<p>a &lt;b&gt; &amp; c<br>next line</p><p><a href="https://example.org/x?y=1&amp;z=2" rel="nofollow noopener noreferrer" ' +
        'target="_blank">https://example.org/x?y=1&amp;z=2</a>.</p>');
  });

  it('links the mentions it is given, as Mastodon\'s h-cards', (): void => {
    expect(plainTextToHtml('hi @bob and @carol', new Map([[ 'bob', 'https://pod.example/actors/bob' ]])))
      .toBe('<p>hi <span class="h-card"><a href="https://pod.example/actors/bob" class="u-url mention">@<span>bob</span></a></span> and @carol</p>');
  });

  it('finds mentions, local and remote, each once, not in e-mail addresses', (): void => {
    expect(mentionsIn('@bob hi @Alice@social.example, @bob again; mail me@example.org')).toEqual([
      { acct: 'bob', username: 'bob', host: undefined },
      { acct: 'alice@social.example', username: 'alice', host: 'social.example' },
    ]);
  });
});
