import { escapeHtml, isWebUrl } from '../http/Html';

/** The form field that marks a form post as a note to create (LdpCreateHandler reads it). */
export const NOTE_FORM_FIELD = 'fedpod-form';

/** A container or member named on a container's page. */
export interface ListedEntry {
  identifier: string;
  name: string;
  container?: boolean;
}

/** What a container's page shows. */
export interface ContainerListingInput {
  identifier: string;
  name: string;
  /** The containers above it, the storage root first. */
  parents: readonly ListedEntry[];
  members: readonly ListedEntry[];
  /** The page of older members, when the members did not fit on this one. */
  next?: string;
  /** Whether to offer the form that adds a note (containers that take notes from anyone who may append). */
  noteForm: boolean;
}

function link(entry: ListedEntry, label: string): string {
  return isWebUrl(entry.identifier) ?
    `<a href="${escapeHtml(entry.identifier)}">${escapeHtml(label)}</a>` :
    escapeHtml(label);
}

/**
 * The sections of a container's page: the path to it, its members with links (and a link to older
 * ones), and a form to add a note, posted to the container like any LDP create (who may append is
 * checked as for any POST). One markup for CSS's listing and Fedpod's paged one.
 */
export function containerListing(input: ContainerListingInput): string {
  const path = [ ...input.parents.map((parent): string => link(parent, parent.name || '/')), escapeHtml(input.name) ].join(' / ');
  const members = input.members.length === 0 ?
    '<p class="meta">Empty.</p>' :
    `<ul class="members">${input.members.map((member): string =>
      `<li>${link(member, `${member.name}${member.container ? '/' : ''}`)}</li>`).join('')}</ul>`;
  const next = input.next ? `\n<p><a rel="next" href="${escapeHtml(input.next)}">Older members</a></p>` : '';
  const form = input.noteForm ?
    `

<section><h2>Add a note</h2>
<form method="post" action="${escapeHtml(input.identifier)}">
<input type="hidden" name="${NOTE_FORM_FIELD}" value="note">
<label for="note-name">Title (optional)</label><input id="note-name" name="name">
<label for="note-content">Text</label><textarea id="note-content" name="content" rows="4" required></textarea>
<button type="submit">Add</button>
</form></section>` :
    '';
  return `<nav aria-label="Path"><p class="meta">${path}</p></nav>

<section><h2>Contents of ${escapeHtml(input.name || '/')}</h2>
${members}${next}
</section>${form}
`;
}

/**
 * Whether the reader may add to a container, from the `WAC-Allow` its access decision gave
 * (`user="read append"`): the note form is offered only to those whose post would be taken. No
 * header: a setup whose policy does not say, where anyone may write (the open LDP setup).
 */
export function readerMayAppend(wacAllow: string | undefined): boolean {
  if (wacAllow === undefined) {
    return true;
  }
  const modes = /user="([^"]*)"/u.exec(wacAllow)?.[1].split(' ') ?? [];
  return modes.includes('append') || modes.includes('write');
}

/** The entries of the containers above `iri`, up to `root` (a storage root or the server's base URL). */
export function parentsOf(iri: string, root: string): ListedEntry[] {
  const parents: ListedEntry[] = [];
  let current = iri;
  while (current !== root && current.length > root.length) {
    current = current.slice(0, current.slice(0, -1).lastIndexOf('/') + 1);
    parents.unshift({ identifier: current, name: nameOf(current, root), container: true });
  }
  return parents;
}

/** A resource's name in its container's listing: its last path segment (`''` for the root). */
export function nameOf(iri: string, root: string): string {
  if (iri === root) {
    return '';
  }
  const trimmed = iri.endsWith('/') ? iri.slice(0, -1) : iri;
  return decodeURIComponent(trimmed.slice(trimmed.lastIndexOf('/') + 1));
}
