import type { MastodonSearch, SearchQuery } from '../../plugins/mastodon/MastodonSearch';
import { notFound } from '../../util/HttpErrors';
import { escapeHtml } from '../http/Html';
import type { ViewContext } from './StatusView';
import { accountLink, renderStatus } from './StatusView';
import type { WebPage, WebPageRequest } from './WebPageHandler';
import { WebPageHandler } from './WebPageHandler';
import type { WebSession } from './WebSession';

export interface WebSearchOptions {
  baseUrl: string;
  session: WebSession;
  search: MastodonSearch;
}

const LIMIT = 20;
const TYPES = [[ '', 'Everything' ], [ 'accounts', 'People' ], [ 'statuses', 'Posts' ], [ 'hashtags', 'Hashtags' ]] as const;

/**
 * `GET /web/search?q=...&type=...`: the app's search, through the same MastodonSearch as the API's
 * `/api/v2/search`: people by handle (`@name@host`) or profile URL, posts by URL, hashtags by the
 * start of their name; each result linked to its page in the app. For a logged-in reader what is not
 * known here yet is fetched (the handle by WebFinger, the URL from its server: `resolve`, through the
 * outbound guard); an anonymous reader finds only what is here. Posts are shown as the reader may read them.
 */
export class WebSearchHandler extends WebPageHandler {
  public constructor(private readonly options: WebSearchOptions) {
    super(options.baseUrl, options.session);
  }

  protected async page({ query }: WebPageRequest, context: ViewContext): Promise<WebPage> {
    const q = (query.get('q') ?? '').trim().slice(0, 500);
    const type = query.get('type') ?? '';
    const known = TYPES.some(([ value ]): boolean => value === type);
    const form = `<form method="get" action="${escapeHtml(this.base)}web/search" class="search" role="search">
<label for="q">Search for a handle (@name@example.social), a profile's or a post's URL, or a hashtag</label>
<input id="q" name="q" type="search" value="${escapeHtml(q)}" maxlength="500" autocomplete="off">
<label for="type">Look for</label>
<select id="type" name="type">${TYPES.map(([ value, label ]): string =>
  `<option value="${value}"${value === type ? ' selected' : ''}>${label}</option>`).join('')}</select>
<button type="submit">Search</button>
</form>`;
    if (q === '') {
      return { title: 'Search', body: `<h1>Search</h1>\n${form}` };
    }
    const reader = context.reader ? { iri: context.reader.webId, username: context.reader.username } : { iri: undefined };
    const found = await this.options.search.search({ q, type: known && type !== '' ? type as SearchQuery['type'] : undefined,
      resolve: context.reader !== undefined, limit: LIMIT, offset: 0 }, reader);
    const sections: string[] = [];
    if (found.accounts.length > 0) {
      sections.push(`<section aria-labelledby="found-people"><h2 id="found-people">People</h2>
<ul class="accounts">${found.accounts.map((account): string => `<li>${accountLink(context, account)}</li>`).join('\n')}</ul></section>`);
    }
    if (found.statuses.length > 0) {
      sections.push(`<section aria-labelledby="found-posts"><h2 id="found-posts">Posts</h2>
${found.statuses.map((status): string => renderStatus(context, status)).join('\n')}</section>`);
    }
    if (found.hashtags.length > 0) {
      sections.push(`<section aria-labelledby="found-tags"><h2 id="found-tags">Hashtags</h2>
<ul class="tags">${found.hashtags.map((tag): string => `<li><a href="${escapeHtml(this.base)}web/tags/${encodeURIComponent(tag.name)}">#${
  escapeHtml(tag.name)}</a></li>`).join('\n')}</ul></section>`);
    }
    const none = context.reader ? 'Nothing found.' : 'Nothing found here. Log in to look on other servers too.';
    return { title: `Search: ${q}`, body: `<h1>Search</h1>\n${form}\n<div role="status">${sections.length === 0 ?
      `<p class="meta">${escapeHtml(none)}</p>` : `<p class="meta">Results for “${escapeHtml(q)}”</p>`}</div>\n${sections.join('\n')}` };
  }

  protected async act(): Promise<string> {
    throw notFound('The search takes no forms.');
  }
}
