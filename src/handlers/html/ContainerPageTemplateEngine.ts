import { escapeHtml } from '../http/Html';
import { containerListing, type ListedEntry } from './ContainerListing';
import type { PageTemplateInput } from './PageTemplateEngine';
import { PageTemplateEngine } from './PageTemplateEngine';

/**
 * The page of an LDP container for browsers when CSS's pipeline serves it (CSS's container listing,
 * rendered by CSS into the server's page layout). Fedpod's own read handler serves the common case,
 * paged; this one serves what it leaves to CSS.
 */
export class ContainerPageTemplateEngine extends PageTemplateEngine {
  public async handle({ contents }: PageTemplateInput): Promise<string> {
    const identifier = String(contents.identifier ?? '');
    // HTML inside Markdown (CSS renders the page from Markdown); the heading stays Markdown for the title.
    return `# ${escapeHtml(contents.name ?? identifier)}

${containerListing({
    identifier,
    name: String(contents.name ?? ''),
    parents: (contents.parents ?? []) as ListedEntry[],
    members: (contents.children ?? []) as ListedEntry[],
    noteForm: true,
  })}`;
  }
}
