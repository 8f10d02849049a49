import { plainTextToHtml } from '../../../../src/plugins/mastodon/StatusText';

describe('status text', (): void => {
  it('makes paragraphs and line breaks, escaped, with links', (): void => {
    expect(plainTextToHtml('a <b> & c\nnext line\n\nhttps://example.org/x?y=1&z=2.'))
      .toBe('<p>a &lt;b&gt; &amp; c<br>next line</p><p><a href="https://example.org/x?y=1&amp;z=2" rel="nofollow noopener noreferrer" ' +
        'target="_blank">https://example.org/x?y=1&amp;z=2</a>.</p>');
  });

});
