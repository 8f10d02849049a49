import type { MastodonStatuses } from '../../plugins/mastodon/MastodonStatuses';
import type { MastodonThreads } from '../../plugins/mastodon/MastodonThreads';
import { badRequest } from '../../util/HttpErrors';
import { parseJson, readBody, sendJson } from '../http/HttpUtil';
import type { OperationInput, OperationTarget } from '../http/Operation';
import { MastodonHandler, readerOf } from './MastodonHandler';
import { readNewStatus } from './MastodonStatusesHandler';
import { timelineQuery } from './Pagination';

/** The `Link` header of a list paged by collection cursors (bookmarks, favourites). */
function listLink(target: OperationTarget, next?: string, prev?: string): Record<string, string> {
  const link = (name: string, cursor: string): string => {
    const query = new URLSearchParams(target.query);
    for (const key of [ 'max_id', 'since_id', 'min_id' ]) {
      query.delete(key);
    }
    query.set(name, cursor);
    return `<${target.iri}?${query.toString()}>; rel="${name === 'max_id' ? 'next' : 'prev'}"`;
  };
  const links = [ ...next ? [ link('max_id', next) ] : [], ...prev ? [ link('min_id', prev) ] : [] ];
  return links.length > 0 ? { link: links.join(', ') } : {};
}

/**
 * The Mastodon endpoints of threads, by the route's name: `mastodon-status-edit` (PUT
 * /api/v1/statuses/:id), `mastodon-status-history`, `mastodon-status-source`,
 * `mastodon-status-reactors` (`favourited_by`, `reblogged_by`), `mastodon-status-bookmark`
 * (`bookmark`, `unbookmark`), `mastodon-status-pin` (`pin`, `unpin`), `mastodon-bookmarks`,
 * `mastodon-favourites`, `mastodon-tag-timeline`, `mastodon-poll` and `mastodon-poll-votes`.
 */
export class MastodonThreadsHandler extends MastodonHandler {
  public constructor(
    private readonly statuses: MastodonStatuses,
    private readonly threads: MastodonThreads,
    private readonly maxBodyBytes = 1_048_576,
  ) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const id = operation.params.id ?? '';
    const username = operation.agent.username;
    const action = operation.target.path.split('/').at(-1);
    const query = operation.target.query;
    switch (operation.route.name) {
      case 'mastodon-status-edit':
        sendJson(response, 200, await this.statuses.edit(username!, id, await readNewStatus(request, this.maxBodyBytes)));
        return;
      case 'mastodon-status-history':
        sendJson(response, 200, await this.threads.history(id, await readerOf(operation)));
        return;
      case 'mastodon-status-source':
        sendJson(response, 200, await this.threads.source(username!, id));
        return;
      case 'mastodon-status-reactors':
        sendJson(response, 200, await this.threads.reactors(id, await readerOf(operation), action === 'favourited_by' ? 'likes' : 'shares'));
        return;
      case 'mastodon-status-bookmark':
        sendJson(response, 200, await this.threads.bookmark(username!, id, action === 'bookmark'));
        return;
      case 'mastodon-status-pin':
        sendJson(response, 200, await this.threads.pin(username!, id, action === 'pin'));
        return;
      case 'mastodon-tag-timeline': {
        const { limit } = timelineQuery(query);
        const statuses = await this.threads.tagTimeline(operation.params.hashtag ?? '', await readerOf(operation), limit,
          query.get('max_id') ?? undefined);
        const last = statuses.at(-1);
        sendJson(response, 200, statuses, last ? listLink(operation.target, last.id) : {});
        return;
      }
      case 'mastodon-poll':
        sendJson(response, 200, await this.threads.poll(id, await readerOf(operation)));
        return;
      case 'mastodon-poll-votes':
        sendJson(response, 200, await this.threads.vote(username!, id, await this.readChoices(request)));
        return;
      default: {
        const { limit } = timelineQuery(query);
        const page = await this.threads.list(username!, operation.route.name === 'mastodon-bookmarks' ? 'bookmarks' : 'favourites', limit,
          query.get('max_id') ?? undefined, query.get('min_id') ?? query.get('since_id') ?? undefined);
        sendJson(response, 200, page.statuses, listLink(operation.target, page.next, page.prev));
      }
    }
  }

  /** A vote's `choices` (option indexes), from JSON or a form (`choices[]`). */
  private async readChoices(request: OperationInput['request']): Promise<number[]> {
    const text = (await readBody(request, this.maxBodyBytes)).toString('utf8');
    let choices: unknown;
    if ((request.headers['content-type'] ?? '').includes('json')) {
      const parsed = parseJson(text);
      choices = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as { choices?: unknown }).choices : undefined;
    } else {
      const form = new URLSearchParams(text);
      choices = [ ...form.getAll('choices[]'), ...form.getAll('choices') ];
    }
    if (!Array.isArray(choices)) {
      throw badRequest('Send the choices as a list of option indexes.');
    }
    return choices.map(Number);
  }
}
