import { renderPost } from '../../../../src/handlers/html/PostView';

describe('PostView', (): void => {
  describe('renderPost', (): void => {
    it('shows the title, the content made safe, the date and a permalink', (): void => {
      const html = renderPost({ id: 'https://pod.example/objects/1', type: 'Article', name: 'On <tags>',
        content: '<p>Hello <script>alert(1)</script><b>world</b></p>', published: '2026-03-04T05:06:07Z' });
      expect(html).toContain('<h2>On &lt;tags&gt;</h2>');
      expect(html).toContain('<b>world</b>');
      expect(html).not.toContain('<script>');
      expect(html).toContain('<a href="https://pod.example/objects/1"><time datetime="2026-03-04T05:06:07Z">2026-03-04 05:06 UTC</time></a>');
    });

    it('uses the heading asked for, the link given, and "Permalink" without a date', (): void => {
      const html = renderPost({ id: 'https://pod.example/objects/1', type: 'Note', name: 'T' }, { heading: 'h1', link: 'https://pod.example/p' });
      expect(html).toContain('<h1>T</h1>');
      expect(html).toContain('<a href="https://pod.example/p">Permalink</a>');
    });

    it('links nothing that is not http(s)', (): void => {
      const html = renderPost({ id: 'urn:uuid:1', type: 'Note', content: 'x', published: '2026-03-04T05:06:07Z' });
      expect(html).not.toContain('<a ');
      expect(html).toContain('<time');
    });

    it('reads content and name from their language maps', (): void => {
      const html = renderPost({ type: 'Note', nameMap: { en: 'Title' }, contentMap: { en: '<p>Text</p>' }});
      expect(html).toContain('<h2>Title</h2>');
      expect(html).toContain('<p>Text</p>');
    });

    it('puts the content behind its content warning', (): void => {
      const html = renderPost({ type: 'Note', summary: 'spoilers <b>', content: '<p>the end</p>' });
      expect(html).toContain('<details><summary>spoilers &lt;b&gt;</summary><p>the end</p></details>');
    });

    it('shows image attachments, links the others, and skips those without a web URL', (): void => {
      const html = renderPost({ type: 'Note', attachment: [
        { type: 'Document', mediaType: 'image/png', url: 'https://cdn.example/a.png', name: 'a cat' },
        { type: 'Image', url: [ { type: 'Link', href: 'https://cdn.example/b.jpg' } ] },
        { type: 'Document', mediaType: 'application/pdf', url: 'https://cdn.example/c.pdf' },
        { type: 'Document', url: 'javascript:alert(1)' },
      ]});
      expect(html).toContain('<li><img src="https://cdn.example/a.png" alt="a cat" loading="lazy"></li>');
      expect(html).toContain('<li><img src="https://cdn.example/b.jpg" alt="https://cdn.example/b.jpg" loading="lazy"></li>');
      expect(html).toContain('<li><a href="https://cdn.example/c.pdf" rel="nofollow noopener noreferrer">https://cdn.example/c.pdf</a></li>');
      expect(html).not.toContain('javascript:');
    });

    it('shows a poll\'s options with their counts and no title for a Question', (): void => {
      const html = renderPost({ type: 'Question', name: 'Which?', oneOf: [
        { type: 'Note', name: 'Yes', replies: { totalItems: 1 } },
        { type: 'Note', name: 'No' },
      ]});
      expect(html).toContain('<ul class="poll"><li>Yes: 1 vote</li><li>No: 0 votes</li></ul>');
      expect(html).not.toContain('<h2>');
    });

    it('counts replies, one or many', (): void => {
      expect(renderPost({ type: 'Note', replies: { totalItems: 1 }})).toContain(' · 1 reply');
      expect(renderPost({ type: 'Note', replies: { totalItems: 3 }})).toContain(' · 3 replies');
      expect(renderPost({ type: 'Note', replies: 'https://pod.example/replies' })).not.toContain('repl');
    });
  });
});
