import { PageLayoutTemplateEngine } from '../../../../src/handlers/html/PageLayoutTemplateEngine';

describe('PageLayoutTemplateEngine', (): void => {
  const engine = new PageLayoutTemplateEngine('https://pod.example/');

  it('puts CSS\'s page body in the server\'s layout, titled after its first heading, unescaped once', async(): Promise<void> => {
    const body = '<h1 id="t">Tom &amp; Jerry &lt;3 &quot;x&quot; &#39;y&#39;</h1><p>text</p><h1>Second</h1>';
    const html = await engine.handle({ contents: { htmlBody: body }});
    expect(html).toContain('<title>Tom &amp; Jerry &lt;3 &quot;x&quot; &#39;y&#39; · Fedpod</title>');
    expect(html).toContain(`<main>\n${body}\n</main>`);
    expect(html).toContain('<a class="home" href="https://pod.example/">');
  });

  it('unescapes each entity once, so a heading that shows an entity keeps showing it in the title', async(): Promise<void> => {
    // The heading reads "a &lt;b" on the page: CSS wrote its "&" as "&amp;".
    const html = await engine.handle({ contents: { htmlBody: '<h1>a &amp;lt;b</h1>' }});
    expect(html).toContain('<title>a &amp;lt;b · Fedpod</title>');
  });

  it('titles a page without a heading, or without a body, after the server', async(): Promise<void> => {
    expect(await engine.handle({ contents: { htmlBody: '<p>no heading</p>' }})).toContain('<title>Fedpod</title>');
    const empty = await engine.handle({ contents: {}});
    expect(empty).toContain('<title>Fedpod</title>');
    expect(empty).toContain('<main>\n\n</main>');
  });
});
