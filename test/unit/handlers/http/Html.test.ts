import { escapeHtml, isWebUrl, safeHtml } from '../../../../src/handlers/http/Html';
import { renderPage } from '../../../../src/handlers/http/PageLayout';
import { renderPost } from '../../../../src/handlers/html/PostView';

describe('HTML helpers', (): void => {
  it('escapes text for elements and attributes', (): void => {
    expect(escapeHtml('<a href="x">&\'</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;');
    expect(escapeHtml(undefined)).toBe('');
  });

  it('keeps the markup of a post and drops what runs or loads', (): void => {
    const html = safeHtml('<p>Hi <a href="https://x.example/@a" class="mention">@a</a> <script>alert(1)</script>' +
      '<img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a><iframe src="https://evil.example"></iframe></p>');
    expect(html).toContain('<a href="https://x.example/@a" class="mention" rel="nofollow noopener noreferrer" target="_blank">@a</a>');
    expect(html).not.toMatch(/script|onerror|javascript|iframe|<img/u);
  });

  it('links only to web URLs', (): void => {
    expect(isWebUrl('https://x.example/a')).toBe(true);
    expect(isWebUrl('javascript:alert(1)')).toBe(false);
    expect(isWebUrl('not a url')).toBe(false);
    expect(isWebUrl(3)).toBe(false);
  });

  it('lays a page out with the server\'s name, the title escaped, and a home link', (): void => {
    const page = renderPage('https://pod.example/', '<Alice>', '<p>body</p>');
    expect(page).toContain('<title>&lt;Alice&gt; · Fedpod</title>');
    expect(page).toContain('<a class="home" href="https://pod.example/">Fedpod</a>');
    expect(page).toContain('<meta name="viewport"');
    expect(renderPage(undefined, 'Error', '')).toContain('href="/"');
  });

  it('renders a post behind its content warning, with safe attachments, poll counts and replies', (): void => {
    const html = renderPost({ id: 'https://pod.example/objects/1', type: 'Question', content: '<p>Tea?</p>', summary: 'drinks',
      published: '2026-01-02T03:04:05Z', replies: { totalItems: 2 },
      oneOf: [ { name: 'tea', replies: { totalItems: 1 } }, { name: 'coffee' } ],
      attachment: [ { type: 'Image', url: 'https://cdn.example/a.png', name: 'a cat' }, { type: 'Document', url: 'javascript:x' } ] });
    expect(html).toContain('<details><summary>drinks</summary><p>Tea?</p>');
    expect(html).toContain('<img src="https://cdn.example/a.png" alt="a cat" loading="lazy">');
    expect(html).not.toContain('javascript');
    expect(html).toContain('<li>tea: 1 vote</li><li>coffee: 0 votes</li>');
    expect(html).toContain('2 replies');
    expect(html).toContain('<time datetime="2026-01-02T03:04:05Z">2026-01-02 03:04 UTC</time>');
  });
});
