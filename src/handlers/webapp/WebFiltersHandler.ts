import type { FilterContext, FilterKeyword, MastodonFilter, MastodonFilters } from '../../plugins/mastodon/MastodonFilters';
import { FILTER_CONTEXTS } from '../../plugins/mastodon/MastodonFilters';
import { badRequest, notFound } from '../../util/HttpErrors';
import { escapeHtml } from '../http/Html';
import type { ViewContext } from './StatusView';
import { actionForm, formFields } from './StatusView';
import type { WebPage, WebPageRequest } from './WebPageHandler';
import { WebPageHandler } from './WebPageHandler';
import type { WebReader, WebSession } from './WebSession';

export interface WebFiltersOptions {
  baseUrl: string;
  session: WebSession;
  filters: MastodonFilters;
  maxBodyBytes?: number;
}

const CONTEXT_LABELS: Record<FilterContext, string> = {
  home: 'Home and lists', notifications: 'Notifications', public: 'Public timelines', thread: 'Conversations', account: 'Profiles',
};
/** How long a filter lasts: `` keeps what it is (an edit), `never`, or seconds. */
const DURATIONS = [[ 'never', 'Never expires' ], [ '1800', '30 minutes' ], [ '3600', '1 hour' ], [ '21600', '6 hours' ],
  [ '43200', '12 hours' ], [ '86400', '1 day' ], [ '604800', '1 week' ]] as const;
/** Empty keyword rows a form offers for new keywords. */
const NEW_ROWS = 3;
/** Most keyword rows a form is read for. */
const MAX_ROWS = 120;

/** One keyword row of a posted form. */
interface KeywordRow {
  id?: string;
  keyword: string;
  whole_word: boolean;
  destroy: boolean;
}

/**
 * The app's keyword filters (Mastodon's v2 filters, through the same MastodonFilters as
 * `/api/v2/filters`): `/web/filters` lists the user's filters and has the form of a new one,
 * `/web/filters/:id` the form that changes one (its title, keywords each whole word or not, where it
 * applies, warn or hide, how long it lasts) and deletes it. Forms: `POST /web/filters` (create),
 * `/web/filters/:id/update`, `/web/filters/:id/delete`. Timelines apply the filters as the API's do
 * (a `warn` filter's posts folded as "Filtered: <title>", a `hide` filter's left out). Another user's
 * filter is 404; without a session the pages send to the login.
 */
export class WebFiltersHandler extends WebPageHandler {
  public constructor(private readonly options: WebFiltersOptions) {
    super(options.baseUrl, options.session, options.maxBodyBytes);
  }

  protected async page({ params }: WebPageRequest, context: ViewContext): Promise<WebPage | undefined> {
    const reader = context.reader;
    if (!reader) {
      return undefined;
    }
    if (params.id !== undefined) {
      const filter = await this.options.filters.get(reader.username, params.id);
      const path = `web/filters/${encodeURIComponent(filter.id)}`;
      return { title: `Filter ${filter.title}`, body: `<h1>Filter: ${escapeHtml(filter.title)}</h1>
<p class="meta"><a href="${escapeHtml(this.base)}web/filters">All filters</a></p>
<form method="post" action="${escapeHtml(this.base)}${escapeHtml(path)}/update" class="filter">${formFields(context)}
${this.fields(filter)}
<button type="submit">Save</button>
</form>
${actionForm(context, `${path}/delete`, 'Delete this filter')}` };
    }
    const filters = await this.options.filters.all(reader.username);
    const items = filters.map((filter): string => `<li><a href="${escapeHtml(this.base)}web/filters/${encodeURIComponent(filter.id)}">${
      escapeHtml(filter.title)}</a> <span class="meta">${escapeHtml(filter.keywords.map((keyword): string => keyword.keyword).join(', '))} · ${
      filter.filter_action === 'hide' ? 'hidden' : 'folded'} · ${escapeHtml(filter.context.map((entry): string => CONTEXT_LABELS[entry]).join(', '))}${
      expiry(filter)}</span></li>`);
    return { title: 'Filters', body: `<h1>Filters</h1>
<p class="meta">Posts with a filter's keywords are folded under "Filtered" (or hidden) where the filter applies; your apps apply them too.</p>
${items.length > 0 ? `<ul class="filters">${items.join('\n')}</ul>` : '<p class="meta">No filters yet.</p>'}
<section aria-labelledby="new-filter"><h2 id="new-filter">New filter</h2>
<form method="post" action="${escapeHtml(this.base)}web/filters" class="filter">${formFields(context)}
${this.fields()}
<button type="submit">Create filter</button>
</form></section>` };
  }

  protected async act({ params }: WebPageRequest, reader: WebReader, form: URLSearchParams): Promise<string> {
    const { filters } = this.options;
    const username = reader.username;
    const input = { title: form.get('title') ?? '', context: form.getAll('context'), filter_action: form.get('filter_action') ?? 'warn',
      ...expiresIn(form.get('expires_in') ?? '') };
    const rows = keywordRows(form);
    if (params.id === undefined) {
      const created = await filters.create(username, input, rows.filter((row): boolean => !row.destroy && row.keyword.trim() !== '')
        .map((row): Omit<FilterKeyword, 'id'> => ({ keyword: row.keyword, whole_word: row.whole_word })));
      return `web/filters/${encodeURIComponent(created.id)}`;
    }
    switch (params.action) {
      case 'update': {
        // A kept row with its text cleared goes, as one marked for removal; a new row without text is nothing.
        const changes = rows.filter((row): boolean => row.id !== undefined || (!row.destroy && row.keyword.trim() !== ''))
          .map((row): { id?: string; keyword?: string; whole_word?: boolean; destroy?: boolean } =>
            row.id !== undefined && (row.destroy || row.keyword.trim() === '') ? { id: row.id, destroy: true } :
              { ...row.id === undefined ? {} : { id: row.id }, keyword: row.keyword, whole_word: row.whole_word });
        await filters.update(username, params.id, input, changes);
        return `web/filters/${encodeURIComponent(params.id)}`;
      }
      case 'delete':
        await filters.delete(username, params.id);
        return 'web/filters';
      default:
        throw notFound(`No action ${params.action ?? ''}.`);
    }
  }

  /** A filter's fields, filled in with its values: title, keyword rows (its own, then empty ones), contexts, action, duration. */
  private fields(filter?: MastodonFilter): string {
    const rows = [ ...filter?.keywords ?? [], ...Array.from({ length: NEW_ROWS }, (): undefined => undefined) ];
    const keywordRowsHtml = rows.map((keyword, index): string => `<div class="keyword">
${keyword ? `<input type="hidden" name="keyword_id_${index}" value="${escapeHtml(keyword.id)}">` : ''}
<label for="keyword_${index}">Keyword ${index + 1}</label>
<input id="keyword_${index}" name="keyword_${index}" maxlength="200" value="${escapeHtml(keyword?.keyword ?? '')}">
<label><input type="checkbox" name="whole_word_${index}" value="true"${keyword?.whole_word ?? true ? ' checked' : ''}> Whole word only</label>
${keyword ? `<label><input type="checkbox" name="destroy_${index}" value="true"> Remove this keyword</label>` : ''}
</div>`).join('\n');
    const contexts = filter?.context ?? [ 'home', 'public' ];
    const action = filter?.filter_action ?? 'warn';
    return `<label for="title">Title</label>
<input id="title" name="title" required maxlength="200" value="${escapeHtml(filter?.title ?? '')}">
<fieldset><legend>Keywords (upper and lower case alike)</legend>
${keywordRowsHtml}
</fieldset>
<fieldset><legend>Where it applies</legend>
${FILTER_CONTEXTS.map((entry): string => `<label><input type="checkbox" name="context" value="${entry}"${
  contexts.includes(entry) ? ' checked' : ''}> ${escapeHtml(CONTEXT_LABELS[entry])}</label>`).join('\n')}
</fieldset>
<fieldset><legend>What happens to a matching post</legend>
<label><input type="radio" name="filter_action" value="warn"${action === 'warn' ? ' checked' : ''}> Folded under "Filtered: title"</label>
<label><input type="radio" name="filter_action" value="hide"${action === 'hide' ? ' checked' : ''}> Hidden completely</label>
</fieldset>
<label for="expires_in">Expires</label>
<select id="expires_in" name="expires_in">${filter ? `<option value="" selected>As it is${escapeHtml(expiry(filter))}</option>` : ''}${
  DURATIONS.map(([ value, label ]): string => `<option value="${value}"${!filter && value === 'never' ? ' selected' : ''}>${label}</option>`).join('')}</select>`;
  }
}

/** The keyword rows of a posted form, in order. */
function keywordRows(form: URLSearchParams): KeywordRow[] {
  const rows: KeywordRow[] = [];
  for (let index = 0; index < MAX_ROWS && (form.has(`keyword_${index}`) || form.has(`keyword_id_${index}`)); index++) {
    rows.push({ id: form.get(`keyword_id_${index}`) ?? undefined, keyword: form.get(`keyword_${index}`) ?? '',
      whole_word: form.get(`whole_word_${index}`) === 'true', destroy: form.get(`destroy_${index}`) === 'true' });
  }
  return rows;
}

/** The form's duration as the service's `expires_in`: nothing (kept), null (never), or seconds. */
function expiresIn(value: string): { expires_in?: number | null } {
  if (value === '') {
    return {};
  }
  if (value === 'never') {
    return { expires_in: null };
  }
  if (!/^\d{1,8}$/u.test(value)) {
    throw badRequest('Choose how long the filter lasts.', 'invalid_form');
  }
  return { expires_in: Number(value) };
}

/** When a filter expires, for its listing. */
function expiry(filter: MastodonFilter): string {
  if (filter.expires_at === null) {
    return '';
  }
  const at = `${filter.expires_at.slice(0, 16).replace('T', ' ')} UTC`;
  return Date.parse(filter.expires_at) > Date.now() ? ` · until ${at}` : ` · expired ${at}`;
}
