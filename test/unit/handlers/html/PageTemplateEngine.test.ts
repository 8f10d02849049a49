import type { PageTemplateInput } from '../../../../src/handlers/html/PageTemplateEngine';
import { PageTemplateEngine } from '../../../../src/handlers/html/PageTemplateEngine';

/** Renders the contents' `text`, counting its calls. */
class EchoEngine extends PageTemplateEngine {
  public calls = 0;

  public async handle({ contents }: PageTemplateInput): Promise<string> {
    this.calls += 1;
    return `echo: ${String(contents.text)}`;
  }
}

describe('PageTemplateEngine', (): void => {
  it('renders every page: canHandle accepts any input', async(): Promise<void> => {
    await expect(new EchoEngine().canHandle()).resolves.toBeUndefined();
  });

  it('renders through handle when called safely, as CSS\'s converters call it', async(): Promise<void> => {
    const engine = new EchoEngine();
    await expect(engine.handleSafe({ contents: { text: 'hi' }})).resolves.toBe('echo: hi');
    expect(engine.calls).toBe(1);
  });
});
