import type { Server } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { Finalizable } from '@solid/community-server';
import { getLoggerFor, ServerConfigurator } from '@solid/community-server';
import { settleWithin } from '../../util/Deadline';

/**
 * The first step of a graceful shutdown: the HTTP server stops accepting connections, every request
 * already received is served to the end (its answer says `Connection: close`), idle keep-alive
 * connections are closed, and finalize() resolves once no connection is left. Event streams, which
 * never finish, are ended at once (their clients reconnect). After `timeoutMs` the
 * connections still open are cut, so shutdown stays bounded.
 *
 * It runs before the queues and lockers are closed (the App's finalizer sequence in
 * config/parts/app/shutdown.json), so a request in flight still finds them open: a webhook POST
 * answered 202 has its job queued. CSS's ServerInitializer closes the server again afterwards; this
 * makes that second close() wait for the first instead of failing with ERR_SERVER_NOT_RUNNING.
 */
export class HttpServerDrain extends ServerConfigurator implements Finalizable {
  protected readonly logger = getLoggerFor(this);
  private server: Server | undefined;
  private readonly active = new Set<ServerResponse>();
  private closing = false;
  private drained: Promise<void> | undefined;

  /**
   * @param timeoutMs - How long requests in flight may take to finish once shutdown begins.
   */
  public constructor(private readonly timeoutMs = 8000) {
    super();
  }

  public async handle(server: Server): Promise<void> {
    this.server = server;
    server.on('request', (_request, response: ServerResponse): void => {
      this.active.add(response);
      if (this.closing) {
        // A request that came on a connection opened before shutdown: served, then the connection ends.
        response.setHeader('connection', 'close');
      }
      response.once('close', (): void => {
        this.active.delete(response);
        if (this.closing) {
          // Its connection is idle now (or about to be): let it go.
          setImmediate((): void => server.closeIdleConnections());
        }
      });
    });
    const close = server.close.bind(server);
    let closed: Promise<Error | undefined> | undefined;
    server.close = (callback?: (error?: Error) => void): Server => {
      closed ??= new Promise((resolve): void => {
        close((error?: Error): void => resolve(error));
      });
      void closed.then((error): void => callback?.(error));
      return server;
    };
  }

  public async finalize(): Promise<void> {
    if (this.server) {
      this.drained ??= this.drain(this.server);
      await this.drained;
    }
  }

  private async drain(server: Server): Promise<void> {
    this.closing = true;
    for (const response of this.active) {
      if (isEventStream(response)) {
        // An event stream (the web app's live updates) never finishes by itself: it ends now, and
        // its client reconnects to another node or once the server is back.
        response.end();
      } else if (!response.headersSent) {
        response.setHeader('connection', 'close');
      }
    }
    const inFlight = this.active.size;
    const closed = new Promise<void>((resolve): void => {
      server.close((): void => resolve());
    });
    server.closeIdleConnections();
    this.logger.info(`Stopped accepting connections; ${inFlight} request(s) in flight`);
    const finished = await settleWithin(closed.then((): boolean => true), this.timeoutMs, (): boolean => false);
    if (!finished) {
      this.logger.warn(`${this.active.size} request(s) still running after ${this.timeoutMs} ms: closing their connections`);
      server.closeAllConnections();
      await closed;
    }
  }
}

/** A response of Server-Sent Events: its handler sets the content type before it writes the head, so it is known here. */
function isEventStream(response: ServerResponse): boolean {
  return String(response.getHeader('content-type') ?? '').startsWith('text/event-stream');
}
