import type { MastodonNotification } from '../../plugins/mastodon/MastodonNotifications';
import type { MastodonStatuses, StatusFilter } from '../../plugins/mastodon/MastodonStatuses';
import type { MastodonStreaming, StreamClient } from '../../plugins/mastodon/MastodonStreaming';
import type { MastodonStatus } from '../../plugins/mastodon/StatusEntity';
import { badRequest, FedpodHttpError } from '../../util/HttpErrors';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { renderNotification, renderStatus } from './StatusView';
import type { ViewContext } from './StatusView';
import type { WebReader, WebSession } from './WebSession';

/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 20_000;

/** The public timelines a page may follow live (`?stream=`), with the page each is. */
const PAGE_STREAMS: Readonly<Record<string, string>> = { 'public:local': 'web/local', public: 'web/federated', hashtag: 'web/tags/' };
const TAG = /^[\p{L}\p{N}_]{1,100}$/u;

/**
 * `GET /web/live`: the live updates of the app's pages, as Server-Sent Events for the session's user
 * (the session cookie; the page holds no token). It is a client of the streaming API's service
 * (MastodonStreaming, the `user` stream): each event is what that user may read, as the streaming
 * API sends it, rendered here into the HTML the pages show (`status`: a post, with the `stream` it is
 * for: `home`, or the page's public timeline; `notification`; `delete`: the id of a post gone).
 * A page of a public timeline adds its stream (`?stream=public:local`, `public`, or `hashtag&tag=`):
 * the streaming API's public streams, which carry only posts anyone may read, with what the page's
 * timeline hides for the reader left out as there (moderation's StatusFilter: mutes, suspended
 * domains) and the reader's own filters applied (a `hide` filter's posts left out, a `warn` filter's folded).
 * Without a session: 401.
 */
export class WebLiveHandler extends JsonHttpHandler {
  private readonly base: string;

  public constructor(baseUrl: string, private readonly session: WebSession, private readonly streaming: MastodonStreaming,
    private readonly statuses?: MastodonStatuses, private readonly filter?: StatusFilter) {
    super();
    this.base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const reader = await this.session.reader(request);
    if (!reader) {
      throw new FedpodHttpError(401, 'no_session', 'Log in first: live updates are a logged-in reader\'s.');
    }
    const page = pageStream(operation.target.query);
    const home: ViewContext = { base: this.base, reader, back: 'web/home' };
    const timeline: ViewContext = { ...home, back: page?.back ?? 'web/home' };
    const notifications: ViewContext = { ...home, back: 'web/notifications' };
    const write = (event: string, data: unknown): void => {
      if (!response.writableEnded) {
        response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      }
    };
    const client: StreamClient = {
      username: reader.username,
      subscriptions: new Set([ 'user', ...page ? [ page.subscription ] : [] ]),
      send: (stream, event, payload): void => {
        if (event === 'update' && stream[0] === 'user') {
          const status = JSON.parse(payload) as MastodonStatus;
          write('status', { id: (status.reblog ?? status).id, stream: 'home', html: renderStatus(home, status) });
        } else if (event === 'update' && page) {
          void this.publicStatus(JSON.parse(payload) as MastodonStatus, reader).then((status): void => {
            if (status) {
              write('status', { id: (status.reblog ?? status).id, stream: page.stream, html: renderStatus(timeline, status) });
            }
          });
        } else if (event === 'notification') {
          const notification = JSON.parse(payload) as MastodonNotification;
          write('notification', { id: notification.id, html: renderNotification(notifications, notification) });
        } else if (event === 'delete') {
          write('delete', { id: payload });
        }
      },
    };
    response.removeHeader('access-control-allow-origin');
    response.removeHeader('access-control-allow-credentials');
    // Set apart from the head: the server's shutdown (HttpServerDrain) reads it to end the stream at once.
    response.setHeader('content-type', 'text/event-stream; charset=utf-8');
    response.writeHead(200, { 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    response.write(': live\n\n');
    const keepAlive = setInterval((): void => {
      if (!response.writableEnded) {
        response.write(': keep-alive\n\n');
      }
    }, KEEP_ALIVE_MS);
    keepAlive.unref();
    this.streaming.add(client);
    response.once('close', (): void => {
      clearInterval(keepAlive);
      this.streaming.remove(client);
    });
  }

  /** A post of a public stream as the reader's page shows it: their filters of public timelines applied (undefined: hidden). */
  private async publicStatus(status: MastodonStatus, reader: WebReader): Promise<MastodonStatus | undefined> {
    const who = { iri: reader.webId, username: reader.username };
    for (const author of [ status.account.uri, status.reblog?.account.uri ]) {
      if (author && await this.filter?.hides(author, who, 'public')) {
        return undefined;
      }
    }
    return this.statuses ? (await this.statuses.filtered([ status ], who, 'public'))[0] : status;
  }
}

/** The public stream a page asks for: its subscription (as the streaming API names it), its name in events, its page; 400 for another. */
function pageStream(query: URLSearchParams): { subscription: string; stream: string; back: string } | undefined {
  const stream = query.get('stream');
  if (stream === null) {
    return undefined;
  }
  if (!Object.hasOwn(PAGE_STREAMS, stream)) {
    throw badRequest(`No live stream ${stream}: public:local, public or hashtag.`, 'invalid_stream');
  }
  if (stream !== 'hashtag') {
    return { subscription: stream, stream, back: PAGE_STREAMS[stream] };
  }
  const tag = (query.get('tag') ?? '').toLowerCase();
  if (!TAG.test(tag)) {
    throw badRequest('Give the hashtag of the live stream as tag=.', 'invalid_stream');
  }
  return { subscription: `hashtag ${tag}`, stream: 'hashtag', back: `${PAGE_STREAMS.hashtag}${encodeURIComponent(tag)}` };
}
