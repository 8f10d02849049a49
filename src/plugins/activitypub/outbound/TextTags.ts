import escapeHtml from 'escape-html';
import { Parser } from 'htmlparser2';

/** A mention written in a post's text: `@user` (this server) or `@user@host`. */
export interface WrittenMention {
  /** As written, without the `@`: `user` or `user@host` (lower case). */
  acct: string;
}

/** What a post's text names: mentions and hashtags (each once, in order). */
export interface TextTags {
  mentions: WrittenMention[];
  /** Hashtag names as written, without the `#`. */
  hashtags: string[];
}

/** How found mentions and hashtags are linked: the mention's actor by acct (others stay text), and a tag's page. */
export interface TagLinks {
  mentions: ReadonlyMap<string, string>;
  hashtag: (name: string) => string;
}

// A mention starts after the start or a character that cannot end a word, an address or a path (so
// `me@example.org` and `https://host/@user` are not mentions).
const MENTION = /(^|[^\p{L}\p{N}_@/.&=+-])@([a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?)(?:@([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::\d{1,5})?))?/giu;
// A hashtag has a letter (`#1` is a number), starts after the start or a space or punctuation (so not
// a URL's fragment `page#part`, nor a character reference `&#39;`).
const HASHTAG = /(^|[^\p{L}\p{N}_&/#])#([\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*)/gu;
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+/giu;
/** Elements whose text is not scanned: links already made, code, and what is not text. */
const OPAQUE = new Set([ 'a', 'code', 'pre', 'script', 'style', 'kbd', 'samp' ]);

interface Segment {
  start: number;
  end: number;
}

/** The mentions and hashtags of a post's HTML (text outside links and code); plain text is HTML without tags. */
export function tagsInHtml(html: string): TextTags {
  const mentions = new Map<string, WrittenMention>();
  const hashtags = new Map<string, string>();
  for (const segment of textSegments(html)) {
    for (const found of scan(html.slice(segment.start, segment.end))) {
      if (found.kind === 'mention') {
        if (!mentions.has(found.key)) {
          mentions.set(found.key, { acct: found.key });
        }
      } else if (!hashtags.has(found.key)) {
        hashtags.set(found.key, found.name);
      }
    }
  }
  return { mentions: [ ...mentions.values() ], hashtags: [ ...hashtags.values() ] };
}

/**
 * The HTML with its mentions and hashtags linked as Mastodon links them: a mention whose acct
 * `links` knows as `<span class="h-card"><a href="actor" class="u-url mention">@<span>user</span></a></span>`,
 * every hashtag as `<a href="tag page" class="mention hashtag" rel="tag">#<span>name</span></a>`.
 * Text inside links and code is left as it is.
 */
export function linkTagsInHtml(html: string, links: TagLinks): string {
  let out = '';
  let last = 0;
  for (const segment of textSegments(html)) {
    const text = html.slice(segment.start, segment.end);
    let at = 0;
    let linked = '';
    for (const found of scan(text)) {
      let replacement: string | undefined;
      if (found.kind === 'mention') {
        const href = links.mentions.get(found.key);
        if (href !== undefined) {
          replacement = `<span class="h-card"><a href="${escapeHtml(href)}" class="u-url mention">@<span>` +
            `${found.name.split('@')[0]}</span></a></span>`;
        }
      } else {
        replacement = `<a href="${escapeHtml(links.hashtag(found.name))}" class="mention hashtag" rel="tag">` +
          `#<span>${found.name}</span></a>`;
      }
      if (replacement !== undefined) {
        linked += text.slice(at, found.index) + replacement;
        at = found.index + found.length;
      }
    }
    out += html.slice(last, segment.start) + linked + text.slice(at);
    last = segment.end;
  }
  return out + html.slice(last);
}

interface Found {
  kind: 'mention' | 'hashtag';
  /** Where the `@` or `#` is, in the text. */
  index: number;
  length: number;
  /** As written, without the sign. */
  name: string;
  /** How it is compared: lower case (mentions), case-folded (hashtags). */
  key: string;
}

/** Mentions and hashtags in a run of text (outside any URL in it), in order. */
function scan(text: string): Found[] {
  const urls = [ ...text.matchAll(URL_PATTERN) ].map((match): Segment => ({ start: match.index, end: match.index + match[0].length }));
  const inUrl = (index: number): boolean => urls.some((url): boolean => index >= url.start && index < url.end);
  const found: Found[] = [];
  for (const match of text.matchAll(MENTION)) {
    const index = match.index + match[1].length;
    const name = match[3] === undefined ? match[2] : `${match[2]}@${match[3]}`;
    if (!inUrl(index)) {
      found.push({ kind: 'mention', index, length: name.length + 1, name, key: name.toLowerCase() });
    }
  }
  for (const match of text.matchAll(HASHTAG)) {
    const index = match.index + match[1].length;
    if (!inUrl(index)) {
      found.push({ kind: 'hashtag', index, length: match[2].length + 1, name: match[2], key: match[2].toLowerCase() });
    }
  }
  return found.sort((first, second): number => first.index - second.index);
}

/**
 * The runs of text of an HTML fragment that are outside tags, comments and the OPAQUE elements, as
 * positions in the fragment (entities left as written: htmlparser2 with decodeEntities off reports where
 * each text starts and ends).
 */
function textSegments(html: string): Segment[] {
  const segments: Segment[] = [];
  const opaque: string[] = [];
  const parser = new Parser({
    onopentag(name): void {
      if (opaque.length > 0 || OPAQUE.has(name)) {
        opaque.push(name);
      }
    },
    // Also called for void elements and for elements the fragment leaves open.
    onclosetag(name): void {
      if (opaque.at(-1) === name) {
        opaque.pop();
      }
    },
    ontext(): void {
      if (opaque.length === 0) {
        segments.push({ start: parser.startIndex, end: parser.endIndex + 1 });
      }
    },
  }, { decodeEntities: false, lowerCaseTags: true });
  parser.end(html);
  return segments;
}
