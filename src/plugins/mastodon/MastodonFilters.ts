import { recordNotFound } from './MastodonRecords';
import { v7 as uuidv7 } from 'uuid';
import { FileKeyValueStorage } from '../../storage/FileKeyValueStorage';
import { FedpodHttpError } from '../../util/HttpErrors';
import type { MastodonStatus } from './StatusEntity';
import type { AccountDataRemover } from '../accounts/AccountDataRemover';

/** Where a filter applies (Mastodon's contexts). */
export const FILTER_CONTEXTS = [ 'home', 'notifications', 'public', 'thread', 'account' ] as const;
export type FilterContext = typeof FILTER_CONTEXTS[number];
export const FILTER_ACTIONS = [ 'warn', 'hide' ] as const;
export type FilterAction = typeof FILTER_ACTIONS[number];

export interface FilterKeyword {
  id: string;
  keyword: string;
  whole_word: boolean;
}

export interface FilterStatus {
  id: string;
  status_id: string;
}

/** Mastodon's Filter entity (v2), as kept. */
export interface MastodonFilter {
  id: string;
  title: string;
  context: FilterContext[];
  expires_at: string | null;
  filter_action: FilterAction;
  keywords: FilterKeyword[];
  statuses: FilterStatus[];
}

/** What a filter's fields may be changed to (POST or PUT); absent fields stay as they are. */
export interface FilterInput {
  title?: string;
  context?: string[];
  filter_action?: string;
  /** Seconds from now; null: never expires. */
  expires_in?: number | null;
}

/** Mastodon's FilterResult: why a status is filtered. */
export interface FilterResult {
  filter: MastodonFilter;
  keyword_matches: string[] | null;
  status_matches: string[] | null;
}

const MAX_FILTERS = 100;
const MAX_KEYWORDS = 100;
const MAX_TEXT = 200;

const invalid = (message: string): FedpodHttpError => new FedpodHttpError(422, 'Validation failed', `Validation failed: ${message}`);

/** A status's text as a filter reads it: content without markup, content warning, poll options, media descriptions. */
function textOf(status: MastodonStatus): string {
  const html = [ status.spoiler_text, status.content, ...status.poll?.options.map((option): string => option.title) ?? [],
    ...status.media_attachments.map((media): string => media.description ?? '') ].join('\n');
  return html.replaceAll(/<[^>]*>/gu, ' ').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"').replaceAll('&#39;', '\'');
}

/** Whether a keyword is in the text: case-insensitive; `whole_word` only between non-word characters (letters of any script). */
function matches(text: string, keyword: FilterKeyword): boolean {
  const escaped = keyword.keyword.replaceAll(/[$()*+.?[\\\]^{|}]/gu, '\\$&');
  const pattern = keyword.whole_word ? `(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])` : escaped;
  return new RegExp(pattern, 'iu').test(text);
}

/**
 * The users' filters (Mastodon's v2 filters with their keywords and statuses), one small JSON file
 * per user under `<data-dir>/mastodon/filters/`, and their application to the statuses a user
 * reads: `hide` removes a status, `warn` names the filters it matched in its `filtered`. An expired
 * filter is kept (the user may renew it) and applies no more.
 */
export class MastodonFilters implements AccountDataRemover {
  private readonly storage: FileKeyValueStorage<MastodonFilter[]>;

  public constructor(dataDir: string) {
    this.storage = new FileKeyValueStorage(dataDir, 'mastodon/filters');
  }

  /** A deleted account's filters. */
  public async removeAccountData(username: string): Promise<void> {
    await this.storage.delete(username);
  }

  public async all(username: string): Promise<MastodonFilter[]> {
    return (await this.storage.get(username)) ?? [];
  }

  public async get(username: string, id: string): Promise<MastodonFilter> {
    const filter = (await this.all(username)).find((candidate): boolean => candidate.id === id);
    if (!filter) {
      throw recordNotFound();
    }
    return filter;
  }

  public async create(username: string, input: FilterInput, keywords: Omit<FilterKeyword, 'id'>[]): Promise<MastodonFilter> {
    const filters = await this.all(username);
    if (filters.length >= MAX_FILTERS) {
      throw invalid(`at most ${MAX_FILTERS} filters`);
    }
    if (input.title === undefined || input.context === undefined) {
      throw invalid('title and context[] are needed');
    }
    const filter = changed({ id: uuidv7(), title: '', context: [], expires_at: null, filter_action: 'warn', keywords: [], statuses: []},
      input);
    filter.keywords = keywords.map((keyword): FilterKeyword => checkedKeyword({ id: uuidv7(), ...keyword }));
    await this.storage.set(username, [ ...filters, filter ]);
    return filter;
  }

  public async update(username: string, id: string, input: FilterInput,
    keywordChanges: { id?: string; keyword?: string; whole_word?: boolean; destroy?: boolean }[] = []): Promise<MastodonFilter> {
    return this.change(username, id, (filter): MastodonFilter => {
      const next = changed(filter, input);
      for (const change of keywordChanges) {
        const index = change.id === undefined ? -1 : next.keywords.findIndex((keyword): boolean => keyword.id === change.id);
        if (change.id !== undefined && index < 0) {
          throw recordNotFound();
        }
        if (change.destroy) {
          next.keywords.splice(index, 1);
        } else if (index >= 0) {
          next.keywords[index] = checkedKeyword({ ...next.keywords[index], ...definedOf(change) });
        } else {
          next.keywords.push(checkedKeyword({ id: uuidv7(), keyword: change.keyword ?? '', whole_word: change.whole_word ?? true }));
        }
      }
      return next;
    });
  }

  public async delete(username: string, id: string): Promise<void> {
    await this.get(username, id);
    await this.storage.set(username, (await this.all(username)).filter((filter): boolean => filter.id !== id));
  }

  /** Adds a keyword to a filter. */
  public async addKeyword(username: string, filterId: string, keyword: Omit<FilterKeyword, 'id'>): Promise<FilterKeyword> {
    const added = checkedKeyword({ id: uuidv7(), ...keyword });
    await this.change(username, filterId, (filter): MastodonFilter => ({ ...filter, keywords: [ ...filter.keywords, added ]}));
    return added;
  }

  /** Adds a status to a filter (the caller checked that the user may read it). */
  public async addStatus(username: string, filterId: string, statusId: string): Promise<FilterStatus> {
    const added = { id: uuidv7(), status_id: statusId };
    await this.change(username, filterId, (filter): MastodonFilter => {
      if (filter.statuses.some((status): boolean => status.status_id === statusId)) {
        throw invalid('Status has already been taken');
      }
      return { ...filter, statuses: [ ...filter.statuses, added ]};
    });
    return added;
  }

  /** The filter holding a keyword (`keywords`) or a status (`statuses`) of the user's with this id; 404 when none. */
  public async holderOf(username: string, kind: 'keywords' | 'statuses', id: string): Promise<MastodonFilter> {
    const filter = (await this.all(username)).find((candidate): boolean =>
      (candidate[kind] as { id: string }[]).some((entry): boolean => entry.id === id));
    if (!filter) {
      throw recordNotFound();
    }
    return filter;
  }

  /** Changes or removes one keyword or status entry of the user's filters. */
  public async changeEntry(username: string, kind: 'keywords' | 'statuses', id: string, change?: Partial<FilterKeyword>):
  Promise<FilterKeyword | FilterStatus | undefined> {
    const holder = await this.holderOf(username, kind, id);
    let result: FilterKeyword | FilterStatus | undefined;
    await this.change(username, holder.id, (filter): MastodonFilter => {
      if (change === undefined) {
        return { ...filter, [kind]: (filter[kind] as { id: string }[]).filter((entry): boolean => entry.id !== id) };
      }
      const keywords = filter.keywords.map((keyword): FilterKeyword => keyword.id === id ?
        checkedKeyword({ ...keyword, ...definedOf(change), id }) :
        keyword);
      result = keywords.find((keyword): boolean => keyword.id === id);
      return { ...filter, keywords };
    });
    return result;
  }

  /**
   * v1's change of a filter (one keyword of a v2 filter): the keyword's text and `whole_word`, and the
   * fields of the filter holding it, which only a filter of this one keyword may change, as on Mastodon
   * (they would change the other keywords' filter too); `title` follows the phrase, as v1 has none.
   */
  public async changeV1(username: string, keywordId: string, keyword: Partial<Omit<FilterKeyword, 'id'>>, input: FilterInput):
  Promise<{ filter: MastodonFilter; keyword: FilterKeyword }> {
    const holder = await this.holderOf(username, 'keywords', keywordId);
    const filter = await this.change(username, holder.id, (current): MastodonFilter => {
      const next = changed(current, input);
      const fields = ({ title, context, filter_action, expires_at }: MastodonFilter): string =>
        JSON.stringify([ title, context, filter_action, expires_at ]);
      if (current.keywords.length > 1 && fields(next) !== fields(current)) {
        throw new FedpodHttpError(422, 'Validation failed', 'These parameters cannot be changed from this application because they ' +
          'apply to more than one filter keyword. Use a more recent application or the web interface.');
      }
      next.keywords = next.keywords.map((entry): FilterKeyword => entry.id === keywordId ?
        checkedKeyword({ ...entry, ...definedOf(keyword), id: keywordId }) :
        entry);
      return next;
    });
    return { filter, keyword: filter.keywords.find((entry): boolean => entry.id === keywordId)! };
  }

  /**
   * v1's removal of a filter: its keyword, and the filter holding it when nothing is left in it (a v1
   * filter made one v2 filter; an empty one would stay behind in v2 apps, filtering nothing).
   */
  public async deleteV1(username: string, keywordId: string): Promise<void> {
    const filters = await this.all(username);
    if (!filters.some((filter): boolean => filter.keywords.some((entry): boolean => entry.id === keywordId))) {
      throw recordNotFound();
    }
    await this.storage.set(username, filters.flatMap((filter): MastodonFilter[] => {
      const keywords = filter.keywords.filter((entry): boolean => entry.id !== keywordId);
      if (keywords.length === filter.keywords.length) {
        return [ filter ];
      }
      return keywords.length === 0 && filter.statuses.length === 0 ? [] : [{ ...filter, keywords }];
    }));
  }

  /**
   * The statuses as the user reads them in a context: those a `hide` filter matches left out, those
   * a `warn` filter matches with `filtered` (a reblog: matched by what it reblogs).
   */
  public async apply(username: string, statuses: MastodonStatus[], context: FilterContext, now = Date.now()): Promise<MastodonStatus[]> {
    const filters = (await this.all(username)).filter((filter): boolean => filter.context.includes(context) &&
      (filter.expires_at === null || Date.parse(filter.expires_at) > now));
    if (filters.length === 0) {
      return statuses;
    }
    const shown: MastodonStatus[] = [];
    for (const status of statuses) {
      const proper = status.reblog ?? status;
      const text = textOf(proper);
      const results: FilterResult[] = [];
      let hidden = false;
      for (const filter of filters) {
        const keywordMatches = filter.keywords.filter((keyword): boolean => matches(text, keyword)).map((keyword): string => keyword.keyword);
        const statusMatches = filter.statuses.filter((entry): boolean => entry.status_id === proper.id || entry.status_id === status.id)
          .map((entry): string => entry.status_id);
        if (keywordMatches.length > 0 || statusMatches.length > 0) {
          hidden ||= filter.filter_action === 'hide';
          results.push({ filter, keyword_matches: keywordMatches.length > 0 ? keywordMatches : null,
            status_matches: statusMatches.length > 0 ? statusMatches : null });
        }
      }
      if (!hidden) {
        shown.push(results.length === 0 ? status : { ...status, filtered: results,
          ...status.reblog ? { reblog: { ...status.reblog, filtered: results }} : {}});
      }
    }
    return shown;
  }

  private async change(username: string, id: string, change: (filter: MastodonFilter) => MastodonFilter): Promise<MastodonFilter> {
    const filters = await this.all(username);
    const index = filters.findIndex((filter): boolean => filter.id === id);
    if (index < 0) {
      throw recordNotFound();
    }
    const next = change(structuredClone(filters[index]));
    if (next.keywords.length > MAX_KEYWORDS) {
      throw invalid(`at most ${MAX_KEYWORDS} keywords in a filter`);
    }
    await this.storage.set(username, filters.map((filter, at): MastodonFilter => at === index ? next : filter));
    return next;
  }
}

function definedOf<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([ , entry ]): boolean => entry !== undefined)) as Partial<T>;
}

function checkedKeyword(keyword: FilterKeyword): FilterKeyword {
  const text = keyword.keyword.trim();
  if (text.length === 0 || text.length > MAX_TEXT) {
    throw invalid(`Keyword can't be blank or longer than ${MAX_TEXT} characters`);
  }
  return { id: keyword.id, keyword: text, whole_word: keyword.whole_word };
}

/** A filter with the input's fields, checked. */
function changed(filter: MastodonFilter, input: FilterInput, now = Date.now()): MastodonFilter {
  const next = { ...filter, keywords: [ ...filter.keywords ], statuses: [ ...filter.statuses ]};
  if (input.title !== undefined) {
    const title = input.title.trim();
    if (title.length === 0 || title.length > MAX_TEXT) {
      throw invalid(`Title can't be blank or longer than ${MAX_TEXT} characters`);
    }
    next.title = title;
  }
  if (input.context !== undefined) {
    const context = [ ...new Set(input.context) ];
    if (context.length === 0 || context.some((entry): boolean => !(FILTER_CONTEXTS as readonly string[]).includes(entry))) {
      throw invalid(`context is one or more of ${FILTER_CONTEXTS.join(', ')}`);
    }
    next.context = context as FilterContext[];
  }
  if (input.filter_action !== undefined) {
    if (!(FILTER_ACTIONS as readonly string[]).includes(input.filter_action)) {
      throw invalid('filter_action is warn or hide');
    }
    next.filter_action = input.filter_action as FilterAction;
  }
  if (input.expires_in !== undefined) {
    if (input.expires_in !== null && (!Number.isFinite(input.expires_in) || input.expires_in <= 0)) {
      throw invalid('expires_in is a number of seconds');
    }
    next.expires_at = input.expires_in === null ? null : new Date(now + (input.expires_in * 1000)).toISOString();
  }
  return next;
}
