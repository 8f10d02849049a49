import { renderPage } from '../http/PageLayout';
import type { PageTemplateInput } from './PageTemplateEngine';
import { PageTemplateEngine } from './PageTemplateEngine';

/**
 * CSS's main page template (every HTML page CSS renders: error pages, container listings, its
 * login screens) in Fedpod's layout, so a browser sees one server whatever part answers. The page's
 * title is its first heading, as in CSS's own template.
 */
export class PageLayoutTemplateEngine extends PageTemplateEngine {
  public constructor(private readonly baseUrl: string) {
    super();
  }

  public async handle({ contents }: PageTemplateInput): Promise<string> {
    const body = String(contents.htmlBody ?? '');
    const title = /<h1[^>]*>([^<]*)<\/h1>/u.exec(body)?.[1] ?? 'Fedpod';
    // The heading is HTML already escaped by CSS's Markdown renderer: unescape the few entities it
    // writes, &amp; last, so that an escaped entity ("&amp;lt;") stays the text it shows ("&lt;").
    return renderPage(this.baseUrl, title.replace(/&lt;/gu, '<').replace(/&gt;/gu, '>')
      .replace(/&quot;/gu, '"').replace(/&#39;/gu, '\'').replace(/&amp;/gu, '&'), body);
  }
}
