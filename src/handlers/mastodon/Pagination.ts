import type { TimelineQuery } from '../../plugins/mastodon/MastodonRecords';
import { MastodonRecords } from '../../plugins/mastodon/MastodonRecords';
import type { OperationTarget } from '../http/Operation';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 40;

/**
 * Mastodon's paging parameters as a timeline query: `limit` (20, at most 40), `max_id` (older than),
 * `since_id` (newer than, the newest first) and `min_id` (right after, the oldest first). An id
 * that is not one of this API's (a UUIDv7) places nothing and is ignored.
 */
export function timelineQuery(query: URLSearchParams): TimelineQuery {
  const limit = Number.parseInt(query.get('limit') ?? '', 10);
  const time = (name: string): Date | undefined => {
    const value = query.get(name);
    return value ? MastodonRecords.timeOf(value) : undefined;
  };
  const minId = time('min_id');
  return {
    limit: Number.isFinite(limit) && limit > 0 ? Math.min(limit, MAX_LIMIT) : DEFAULT_LIMIT,
    before: time('max_id'),
    after: minId ?? time('since_id'),
    ascending: minId !== undefined,
  };
}

/**
 * The `Link` header of a page (newest first): `next` for older items (max_id of the last), `prev`
 * for newer ones (min_id of the first), keeping the request's other parameters.
 */
export function linkHeader(target: OperationTarget, ids: readonly string[]): Record<string, string> {
  if (ids.length === 0) {
    return {};
  }
  const link = (name: string, id: string): string => {
    const query = new URLSearchParams(target.query);
    for (const cursor of [ 'max_id', 'since_id', 'min_id' ]) {
      query.delete(cursor);
    }
    query.set(name, id);
    return `${target.iri}?${query.toString()}`;
  };
  return { link: `<${link('max_id', ids.at(-1)!)}>; rel="next", <${link('min_id', ids[0])}>; rel="prev"` };
}
