import type { HttpHandlerInput } from '@solid/community-server';
import type { MastodonNotification } from '../../plugins/mastodon/MastodonNotifications';
import type { MastodonStreaming, StreamClient } from '../../plugins/mastodon/MastodonStreaming';
import type { MastodonStatus } from '../../plugins/mastodon/StatusEntity';
import { FedpodHttpError } from '../../util/HttpErrors';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { renderNotification, renderStatus } from './StatusView';
import type { ViewContext } from './StatusView';
import type { WebSession } from './WebSession';

/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 20_000;

/**
 * `GET /web/live`: the live updates of the app's pages, as Server-Sent Events for the session's user
 * (the session cookie; the page holds no token). It is a client of the streaming API's service
 * (MastodonStreaming, the `user` stream): each event is what that user may read, as the streaming
 * API sends it, rendered here into the HTML the pages show (`status`: a post for the home timeline,
 * `notification`, `delete`: the id of a post gone). Without a session: 401.
 */
export class WebLiveHandler extends JsonHttpHandler {
  private readonly base: string;

  public constructor(baseUrl: string, private readonly session: WebSession, private readonly streaming: MastodonStreaming) {
    super();
    this.base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  protected async serve({ request, response }: HttpHandlerInput): Promise<void> {
    const reader = await this.session.reader(request);
    if (!reader) {
      throw new FedpodHttpError(401, 'no_session', 'Log in first: live updates are a logged-in reader\'s.');
    }
    const home: ViewContext = { base: this.base, reader, back: 'web/home' };
    const notifications: ViewContext = { ...home, back: 'web/notifications' };
    const write = (event: string, data: unknown): void => {
      if (!response.writableEnded) {
        response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      }
    };
    const client: StreamClient = {
      username: reader.username,
      subscriptions: new Set([ 'user' ]),
      send: (_stream, event, payload): void => {
        if (event === 'update') {
          const status = JSON.parse(payload) as MastodonStatus;
          write('status', { id: (status.reblog ?? status).id, html: renderStatus(home, status) });
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
}
