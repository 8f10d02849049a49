import { renderPage, SERVER_NAME } from '../../../../src/handlers/http/PageLayout';

describe('PageLayout', (): void => {
  describe('renderPage', (): void => {
    it('wraps the body in a whole page titled after the page and the server, linking home', (): void => {
      const html = renderPage('https://pod.example:8443/pod', 'Posts & <more>', '<p>body</p>');
      expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
      expect(html).toContain(`<title>Posts &amp; &lt;more&gt; · ${SERVER_NAME}</title>`);
      expect(html).toContain('<a class="home" href="https://pod.example:8443/pod/">Fedpod</a><span class="meta">pod.example:8443</span>');
      expect(html).toContain('<main>\n<p>body</p>\n</main>');
      expect(html).toContain('on pod.example:8443.</p></footer>');
      expect(html).toContain('<meta name="viewport"');
    });

    it('links home to / and names no host without a base URL', (): void => {
      const html = renderPage(undefined, 'Error', '<p>x</p>');
      expect(html).toContain('<a class="home" href="/">Fedpod</a><span class="meta"></span>');
      expect(html).toContain('<footer><p>Fedpod: linked data and the fediverse.</p></footer>');
    });
  });
});
