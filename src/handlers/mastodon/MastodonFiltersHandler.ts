import type { IncomingMessage } from 'node:http';
import type { FilterInput, FilterKeyword, MastodonFilter } from '../../plugins/mastodon/MastodonFilters';
import type { MastodonFilters } from '../../plugins/mastodon/MastodonFilters';
import type { MastodonStatuses } from '../../plugins/mastodon/MastodonStatuses';
import { badRequest, FedpodHttpError, unsupportedMediaType } from '../../util/HttpErrors';
import { mediaTypeOf, readBody, parseJson, sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler, readerOf } from './MastodonHandler';

const MAX_BODY = 64 * 1024;

/** A body's fields: JSON as it is, a form's keys as they are (`context[]` repeated: a list). */
type Fields = Record<string, unknown>;

async function readFields(request: IncomingMessage, query: URLSearchParams): Promise<Fields> {
  const fields: Fields = {};
  const addForm = (entries: Iterable<[string, string]>): void => {
    for (const [ key, value ] of entries) {
      if (key.endsWith('[]') && !key.includes('][')) {
        const name = key.slice(0, -2);
        fields[name] = [ ...Array.isArray(fields[name]) ? fields[name] as unknown[] : [], value ];
      } else {
        fields[key] = value;
      }
    }
  };
  addForm(query);
  const type = mediaTypeOf(request.headers['content-type']);
  const length = request.headers['content-length'];
  if ((length === undefined || length === '0') && request.headers['transfer-encoding'] === undefined) {
    request.resume();
    return fields;
  }
  if (type === 'application/json') {
    const body = parseJson((await readBody(request, MAX_BODY)).toString('utf8'));
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('The body must be a JSON object.');
    }
    return { ...fields, ...body as Fields };
  }
  if (type === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams((await readBody(request, MAX_BODY)).toString('utf8'));
    addForm(form);
    return fields;
  }
  if (type === 'multipart/form-data') {
    const body = await readBody(request, MAX_BODY);
    const data = await new Response(new Uint8Array(body), { headers: { 'content-type': request.headers['content-type']! }}).formData()
      .catch((): never => {
        throw badRequest('The multipart body could not be read.');
      });
    const entries: [string, string][] = [];
    data.forEach((value, key): void => {
      if (typeof value === 'string') {
        entries.push([ key, value ]);
      }
    });
    addForm(entries);
    return fields;
  }
  request.resume();
  throw unsupportedMediaType(`Content-Type ${type} is not accepted here; send JSON or a form.`);
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;

function flag(value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  return value === true || value === 'true' || value === '1' || value === 1;
}

function filterInput(fields: Fields): FilterInput {
  const context = fields.context;
  const expires = fields.expires_in;
  return {
    title: text(fields.title),
    context: context === undefined ? undefined : (Array.isArray(context) ? context : [ context ]).map(String),
    filter_action: text(fields.filter_action),
    // An empty expires_in is "never" (apps send it so when a filter's expiry is taken away).
    expires_in: expires === undefined ? undefined : expires === null || expires === '' ? null : Number(expires),
  };
}

type KeywordChange = { id?: string; keyword?: string; whole_word?: boolean; destroy?: boolean };

/**
 * `keywords_attributes` as JSON (a list, or an object by index) or form keys: `keywords_attributes[0][keyword]`
 * or `keywords_attributes[][keyword]` (a new entry whenever a key comes again).
 */
function keywordChanges(fields: Fields): KeywordChange[] {
  const entries: Record<string, unknown>[] = [];
  const nested = fields.keywords_attributes;
  if (nested && typeof nested === 'object') {
    for (const entry of Object.values(nested as Record<string, unknown>)) {
      if (entry && typeof entry === 'object') {
        entries.push(entry as Record<string, unknown>);
      }
    }
  }
  const indexed = new Map<string, Record<string, unknown>>();
  let current: Record<string, unknown> | undefined;
  for (const [ key, value ] of Object.entries(fields)) {
    const match = /^keywords_attributes\[(\d*)\]\[(\w+)\]$/u.exec(key);
    if (!match) {
      continue;
    }
    if (match[1] === '') {
      if (!current || match[2] in current) {
        current = {};
        entries.push(current);
      }
      current[match[2]] = value;
    } else {
      indexed.set(match[1], { ...indexed.get(match[1]), [match[2]]: value });
    }
  }
  entries.push(...indexed.values());
  return entries.map((entry): KeywordChange => ({ id: text(entry.id), keyword: text(entry.keyword),
    whole_word: flag(entry.whole_word), destroy: flag(entry._destroy) }));
}

/** Mastodon's v1 Filter: one keyword of a v2 filter, with its filter's fields. */
function v1Filter(filter: MastodonFilter, keyword: FilterKeyword): Record<string, unknown> {
  return { id: keyword.id, phrase: keyword.keyword, context: filter.context, whole_word: keyword.whole_word,
    expires_at: filter.expires_at, irreversible: filter.filter_action === 'hide' };
}

/** A v1 body's filter fields: `phrase` is the title too (v1 has none), `irreversible` the action. */
function v1Input(fields: Fields): FilterInput {
  const irreversible = flag(fields.irreversible);
  return { ...filterInput(fields), title: text(fields.phrase),
    filter_action: irreversible === undefined ? undefined : irreversible ? 'hide' : 'warn' };
}

/**
 * Filters (v2), by the route's name: `mastodon-filters` (GET the user's, POST one with
 * `keywords_attributes`), `mastodon-filter` (GET, PUT, DELETE), `mastodon-filter-keywords` and
 * `mastodon-filter-statuses` (a filter's, GET and POST), `mastodon-filter-keyword` (GET, PUT, DELETE of
 * `/api/v2/filters/keywords/:id`, also `/api/v2/filter_keywords/:id`), `mastodon-filter-status` (GET, DELETE of
 * `/api/v2/filters/statuses/:id`, also `/api/v2/filter_statuses/:id`)
 * and v1's, a v1 filter being one keyword of a v2 filter: `mastodon-filters-v1` (GET the list, one per
 * keyword; POST a filter of one keyword) and `mastodon-filter-v1` (GET, PUT, DELETE of one, by its
 * keyword's id). Another user's filter, keyword or status is 404.
 */
export class MastodonFiltersHandler extends MastodonHandler {
  public constructor(private readonly filters: MastodonFilters, private readonly statuses: MastodonStatuses) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const username = operation.agent.username!;
    const id = operation.params.id ?? '';
    const method = request.method ?? 'GET';
    const reading = method === 'GET' || method === 'HEAD';
    const fields = reading || method === 'DELETE' ? {} : await readFields(request, operation.target.query);
    switch (operation.route.name) {
      case 'mastodon-filters-v1': {
        if (reading) {
          sendJson(response, 200, (await this.filters.all(username)).flatMap((filter): Record<string, unknown>[] =>
            filter.keywords.map((keyword): Record<string, unknown> => v1Filter(filter, keyword))));
          return;
        }
        const phrase = text(fields.phrase);
        if (!phrase?.trim()) {
          throw new FedpodHttpError(422, 'Validation failed', 'Validation failed: Phrase can\'t be blank');
        }
        const created = await this.filters.create(username, v1Input(fields), [{ keyword: phrase, whole_word: flag(fields.whole_word) ?? true }]);
        sendJson(response, 200, v1Filter(created, created.keywords[0]));
        return;
      }
      case 'mastodon-filter-v1': {
        if (method === 'DELETE') {
          await this.filters.deleteV1(username, id);
          sendJson(response, 200, {});
          return;
        }
        const { filter, keyword } = reading ?
          await this.filters.holderOf(username, 'keywords', id).then((holder): { filter: MastodonFilter; keyword: FilterKeyword } =>
            ({ filter: holder, keyword: holder.keywords.find((entry): boolean => entry.id === id)! })) :
          await this.filters.changeV1(username, id, { keyword: text(fields.phrase), whole_word: flag(fields.whole_word) }, v1Input(fields));
        sendJson(response, 200, v1Filter(filter, keyword));
        return;
      }
      case 'mastodon-filters':
        sendJson(response, 200, reading ?
          await this.filters.all(username) :
          await this.filters.create(username, filterInput(fields), keywordChanges(fields)
            .map((change): Omit<FilterKeyword, 'id'> => ({ keyword: change.keyword ?? '', whole_word: change.whole_word ?? true }))));
        return;
      case 'mastodon-filter':
        if (method === 'DELETE') {
          await this.filters.delete(username, id);
          sendJson(response, 200, {});
        } else {
          sendJson(response, 200, reading ?
            await this.filters.get(username, id) :
            await this.filters.update(username, id, filterInput(fields), keywordChanges(fields)));
        }
        return;
      case 'mastodon-filter-keywords':
        sendJson(response, 200, reading ?
          (await this.filters.get(username, id)).keywords :
          await this.filters.addKeyword(username, id, { keyword: text(fields.keyword) ?? '', whole_word: flag(fields.whole_word) ?? true }));
        return;
      case 'mastodon-filter-keyword': {
        if (reading) {
          sendJson(response, 200, (await this.filters.holderOf(username, 'keywords', id)).keywords.find((keyword): boolean => keyword.id === id));
          return;
        }
        const changed = await this.filters.changeEntry(username, 'keywords', id, method === 'DELETE' ? undefined :
          { keyword: text(fields.keyword), whole_word: flag(fields.whole_word) });
        sendJson(response, 200, changed ?? {});
        return;
      }
      case 'mastodon-filter-statuses': {
        if (reading) {
          sendJson(response, 200, (await this.filters.get(username, id)).statuses);
          return;
        }
        const statusId = text(fields.status_id);
        if (!statusId) {
          throw new FedpodHttpError(422, 'Validation failed', 'Validation failed: give status_id');
        }
        // Only a status the user may read can be filtered (another is 404, as when reading it).
        await this.filters.get(username, id);
        await this.statuses.get(statusId, await readerOf(operation));
        sendJson(response, 200, await this.filters.addStatus(username, id, statusId));
        return;
      }
      default: {
        const holder = await this.filters.holderOf(username, 'statuses', id);
        const entry = holder.statuses.find((status): boolean => status.id === id);
        if (method === 'DELETE') {
          await this.filters.changeEntry(username, 'statuses', id);
          sendJson(response, 200, {});
          return;
        }
        sendJson(response, 200, entry);
      }
    }
  }
}
