import { escapeHtml, isWebUrl } from '../http/Html';
import type { PageTemplateInput } from './PageTemplateEngine';
import { PageTemplateEngine } from './PageTemplateEngine';

/** The form field that marks a form post as a note to create (LdpCreateHandler reads it). */
export const NOTE_FORM_FIELD = 'fedpod-form';

interface Entry {
  identifier: string;
  name: string;
  container?: boolean;
}

/**
 * The page of an LDP container for browsers (CSS's container listing, rendered by CSS into the
 * server's page layout): the path to it, its members with links, and a form to add a note, posted
 * to the container like any LDP create (who may append is checked as for any POST; a refusal is an
 * error page).
 */
export class ContainerPageTemplateEngine extends PageTemplateEngine {
  public async handle({ contents }: PageTemplateInput): Promise<string> {
    const identifier = String(contents.identifier ?? '');
    const parents = (contents.parents ?? []) as Entry[];
    const children = (contents.children ?? []) as Entry[];
    const link = (entry: Entry, label: string): string => isWebUrl(entry.identifier) ?
      `<a href="${escapeHtml(entry.identifier)}">${escapeHtml(label)}</a>` :
      escapeHtml(label);
    // HTML inside Markdown (CSS renders the page from Markdown); the heading stays Markdown for the title.
    return `# ${escapeHtml(contents.name ?? identifier)}

<nav aria-label="Path"><p class="meta">${[ ...parents.map((parent): string => link(parent, parent.name || '/')), escapeHtml(contents.name) ].join(' / ')}</p></nav>

<section><h2>Contents</h2>
${children.length === 0 ? '<p class="meta">Empty.</p>' : `<ul class="members">${children.map((child): string =>
    `<li>${link(child, `${child.name}${child.container ? '/' : ''}`)}</li>`).join('')}</ul>`}
</section>

<section><h2>Add a note</h2>
<form method="post" action="${escapeHtml(identifier)}">
<input type="hidden" name="${NOTE_FORM_FIELD}" value="note">
<label for="note-name">Title (optional)</label><input id="note-name" name="name">
<label for="note-content">Text</label><textarea id="note-content" name="content" rows="4" required></textarea>
<button type="submit">Add</button>
</form></section>
`;
  }
}
