import type { TemplateEngine, TemplateEngineInput } from '@solid/community-server';

export type PageTemplateInput = TemplateEngineInput<NodeJS.Dict<unknown>>;

/**
 * A template engine CSS's converters can call (TemplateEngine's shape) for the pages Fedpod renders
 * in CSS's place. It does not extend CSS's TemplateEngine: CSS does not expose that abstract class as
 * a component to extend in config.
 */
export abstract class PageTemplateEngine implements Pick<TemplateEngine, 'canHandle' | 'handle' | 'handleSafe'> {
  public async canHandle(): Promise<void> {
    // Every page can be rendered.
  }

  public async handleSafe(input: PageTemplateInput): Promise<string> {
    return this.handle(input);
  }

  public abstract handle(input: PageTemplateInput): Promise<string>;
}
