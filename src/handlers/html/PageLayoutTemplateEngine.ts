import type { TemplateEngine, TemplateEngineInput } from '@solid/community-server';
import { renderPage } from './PageLayout';

type EngineInput = TemplateEngineInput<NodeJS.Dict<unknown>>;

/**
 * CSS's main page template (every HTML page CSS renders: error pages, container listings, its
 * login screens) in Fedpod's layout, so a browser sees one server whatever part answers. The page's
 * title is its first heading, as in CSS's own template. It has TemplateEngine's shape without
 * extending it: CSS does not expose that abstract class as a component to extend in config.
 */
export class PageLayoutTemplateEngine implements Pick<TemplateEngine, 'canHandle' | 'handle' | 'handleSafe'> {
  public constructor(private readonly baseUrl: string) {}

  public async canHandle(): Promise<void> {
    // Every page can be laid out.
  }

  public async handleSafe(input: EngineInput): Promise<string> {
    return this.handle(input);
  }

  public async handle({ contents }: EngineInput): Promise<string> {
    const body = String(contents.htmlBody ?? '');
    const title = /<h1[^>]*>([^<]*)<\/h1>/u.exec(body)?.[1] ?? 'Fedpod';
    // The heading is HTML already escaped by CSS's Markdown renderer: unescape the few entities it writes.
    return renderPage(this.baseUrl, title.replace(/&amp;/gu, '&').replace(/&lt;/gu, '<').replace(/&gt;/gu, '>')
      .replace(/&quot;/gu, '"').replace(/&#39;/gu, '\''), body);
  }
}
