import type { WebSocketHandlerInput } from '@solid/community-server';
import { getLoggerFor, NotImplementedHttpError, WebSocketHandler } from '@solid/community-server';
import type { LoginPolicy } from '../../plugins/accounts/LoginPolicy';
import type { TokenService } from '../../plugins/accounts/TokenService';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import type { MastodonOAuthService } from '../../plugins/mastodon/MastodonOAuthService';
import type { StreamClient } from '../../plugins/mastodon/MastodonStreaming';
import { STREAMS } from '../../plugins/mastodon/MastodonStreaming';
import type { MastodonStreaming } from '../../plugins/mastodon/MastodonStreaming';
import { grantsAny } from '../../plugins/mastodon/OAuthScopes';
import { messageOf } from '../../util/Errors';
import type { WebSocket } from 'ws';

/** What a token may stream: Mastodon asks for one of these. */
const STREAMING_SCOPES = [ 'read:statuses', 'read:notifications' ];
/** Closed for a credential that is missing, invalid, revoked or expired (a policy violation). */
const POLICY_VIOLATION = 1008;
/** Streams that are a user's own. */
const USER_STREAMS = new Set([ 'user', 'user:notification', 'direct', 'list' ]);

interface Login {
  username?: string;
  /** Whether the credential still holds (a revoked OAuth token or an expired Fedpod token does not). */
  valid: () => Promise<boolean>;
}

/**
 * Mastodon's streaming API, `GET /api/v1/streaming` upgraded to a WebSocket (CSS's
 * WebSocketServerConfigurator hands every upgrade to the WebSocket handlers; this one takes that
 * path, `/api/v1/streaming/<stream>` too, and the Solid notification sockets keep theirs). The token
 * comes as Mastodon takes it: `access_token` in the query, the `Sec-WebSocket-Protocol` header (as
 * masto.js sends it), or `Authorization: Bearer`; an app's OAuth token needs `read:statuses` or
 * `read:notifications`; a Fedpod token counts too. It is checked again every `recheckSeconds`, and
 * the socket is closed (1008) once it is revoked or expired, or its account suspended (`accounts`). Streams: `stream=` of the query (with
 * `tag=`, `list=`), then `{"type":"subscribe"|"unsubscribe","stream":...,"tag":...}` messages.
 */
export class MastodonStreamingSocketHandler extends WebSocketHandler {
  protected readonly logger = getLoggerFor(this);
  private readonly path: string;
  private readonly urls: ActorUrls;

  /**
   * @param accounts - The operator's measures: a suspended account's socket is refused, and closed at the next check.
   */
  public constructor(
    baseUrl: string,
    private readonly streaming: MastodonStreaming,
    private readonly oauth: MastodonOAuthService,
    private readonly tokens?: TokenService,
    private readonly recheckSeconds = 10,
    private readonly accounts?: LoginPolicy,
  ) {
    super();
    this.path = `${new URL(baseUrl).pathname.replace(/\/$/u, '')}/api/v1/streaming`;
    this.urls = new ActorUrls(baseUrl);
  }

  public override async canHandle({ upgradeRequest }: WebSocketHandlerInput): Promise<void> {
    const path = new URL(upgradeRequest.url ?? '/', 'http://localhost').pathname;
    if (path !== this.path && !path.startsWith(`${this.path}/`)) {
      throw new NotImplementedHttpError(`${path} is not the streaming API`);
    }
  }

  public async handle({ webSocket, upgradeRequest }: WebSocketHandlerInput): Promise<void> {
    const url = new URL(upgradeRequest.url ?? '/', 'http://localhost');
    let login: Login;
    try {
      login = await this.login(this.tokenOf(url, upgradeRequest.headers));
    } catch (error: unknown) {
      webSocket.send(JSON.stringify({ error: messageOf(error), status: 401 }));
      webSocket.close(POLICY_VIOLATION, 'The access token is invalid');
      return;
    }
    const client: StreamClient = {
      username: login.username,
      subscriptions: new Set(),
      send: (stream, event, payload): void => {
        if (webSocket.readyState === webSocket.OPEN) {
          webSocket.send(JSON.stringify({ stream, event, payload }));
        }
      },
    };
    const initial = url.searchParams.get('stream') ?? url.pathname.slice(this.path.length + 1).replaceAll('/', ':');
    if (initial) {
      this.change(webSocket, client, { stream: initial, tag: url.searchParams.get('tag'), list: url.searchParams.get('list') }, true);
    }
    // The socket is paused until this returns (PausingWebSocketServerConfigurator): no message is missed.
    webSocket.on('message', (data): void => {
      let message: unknown;
      try {
        message = JSON.parse(data.toString());
      } catch {
        sendError(webSocket, 'Could not parse the message as JSON');
        return;
      }
      const type = (message as { type?: unknown } | null)?.type;
      if (type === 'subscribe' || type === 'unsubscribe') {
        this.change(webSocket, client, message as Record<string, unknown>, type === 'subscribe');
      }
    });
    const recheck = setInterval((): void => {
      login.valid().then((valid): void => {
        if (!valid) {
          webSocket.close(POLICY_VIOLATION, 'The access token was revoked');
        }
      }).catch((failure: unknown): void => {
        this.logger.warn(`Could not check a streaming token: ${messageOf(failure)}`);
      });
    }, this.recheckSeconds * 1000);
    recheck.unref();
    webSocket.on('close', (): void => {
      clearInterval(recheck);
      this.streaming.remove(client);
    });
    this.streaming.add(client);
  }

  /** A subscription or unsubscription (`stream`, with `tag` or `list` where the stream needs one). */
  private change(webSocket: WebSocket, client: StreamClient, message: Record<string, unknown>, subscribe: boolean): void {
    const stream = typeof message.stream === 'string' ? message.stream : '';
    if (!STREAMS.has(stream)) {
      sendError(webSocket, 'Unknown stream type');
      return;
    }
    if (USER_STREAMS.has(stream) && client.username === undefined) {
      sendError(webSocket, 'This stream needs the token of a user');
      return;
    }
    let key = stream;
    if (stream.startsWith('hashtag')) {
      if (typeof message.tag !== 'string' || message.tag === '') {
        sendError(webSocket, 'No tag for stream provided');
        return;
      }
      key = `${stream} ${message.tag.replace(/^#/u, '').toLowerCase()}`;
    } else if (stream === 'list') {
      key = `list ${String(message.list)}`;
    }
    if (subscribe) {
      client.subscriptions.add(key);
    } else {
      client.subscriptions.delete(key);
    }
  }

  private tokenOf(url: URL, headers: Record<string, string | string[] | undefined>): string | undefined {
    const query = url.searchParams.get('access_token');
    if (query) {
      return query;
    }
    const protocol = headers['sec-websocket-protocol'];
    if (typeof protocol === 'string' && protocol.trim() !== '') {
      return protocol.split(',')[0].trim();
    }
    const match = /^Bearer\s+(\S+)\s*$/iu.exec(typeof headers.authorization === 'string' ? headers.authorization : '');
    return match?.[1];
  }

  /** Who the token is; throws when it is missing, holds no valid credential, or is a locked account's. */
  private async login(token: string | undefined): Promise<Login> {
    const login = await this.tokenLogin(token);
    const accounts = this.accounts;
    if (!accounts || login.username === undefined) {
      return login;
    }
    const actor = this.urls.actor(login.username);
    if (await accounts.isLocked(actor)) {
      throw new Error('This account is suspended');
    }
    return { username: login.username, valid: async(): Promise<boolean> => await login.valid() && !await accounts.isLocked(actor) };
  }

  private async tokenLogin(token: string | undefined): Promise<Login> {
    if (!token) {
      throw new Error('Missing access token');
    }
    if (this.tokens?.isOwnToken(token)) {
      const claims = await this.tokens.verify(token);
      const tokens = this.tokens;
      return { username: claims.username, valid: async(): Promise<boolean> => tokens.verify(token).then((): boolean => true, (): boolean => false) };
    }
    const bearer = await this.oauth.bearer(token);
    if (!bearer) {
      throw new Error('The access token is invalid');
    }
    if (!grantsAny(bearer.scopes, STREAMING_SCOPES)) {
      throw new Error('This action is outside the authorized scopes');
    }
    return { username: bearer.username, valid: async(): Promise<boolean> => await this.oauth.bearer(token) !== undefined };
  }
}

/** Mastodon's answer to a message it cannot take: `{ "error": text, "status": 400 }`, the socket left open. */
function sendError(webSocket: WebSocket, message: string): void {
  webSocket.send(JSON.stringify({ error: message, status: 400 }));
}
