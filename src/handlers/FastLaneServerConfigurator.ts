import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { HttpHandler } from '@solid/community-server';
import { getLoggerFor, guardStream, ServerConfigurator } from '@solid/community-server';
import type { RequestMonitor } from '../plugins/observability/RequestMonitor';

/**
 * Attaches the request listener to the HTTP server, like CSS's HandlerServerConfigurator, but first
 * offers each request to a few handlers that need nothing of CSS's pipeline (signed inbox
 * deliveries, webhook POSTs): those are served directly, skipping the middleware chain, which costs
 * more than the work itself on these hot paths. Everything else goes to CSS's handler as before.
 * Fast-lane answers carry `Access-Control-Allow-Origin: *` themselves (no cookies are involved).
 */
export class FastLaneServerConfigurator extends ServerConfigurator {
  protected readonly logger = getLoggerFor(this);

  /**
   * @param fastLane - Handlers tried first; they refuse in canHandle what they do not serve.
   * @param handler - CSS's full request handler.
   * @param monitor - Gives every request its id, log line and metrics (none without it).
   */
  public constructor(
    private readonly fastLane: HttpHandler,
    private readonly handler: HttpHandler,
    private readonly monitor?: RequestMonitor,
  ) {
    super();
  }

  public async handle(server: Server): Promise<void> {
    const monitor = this.monitor;
    server.on('request', (request: IncomingMessage, response: ServerResponse): void => {
      if (monitor) {
        void monitor.track(request, response, async(): Promise<void> => this.serve(request, response));
      } else {
        void this.serve(request, response);
      }
    });
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const guarded = guardStream(request);
    guarded.on('error', (error: Error): void => {
      this.logger.error(`Request error: ${error.message}`);
    });
    const input = { request: guarded, response };
    try {
      let fast = true;
      try {
        await this.fastLane.canHandle(input);
      } catch {
        fast = false;
      }
      if (fast) {
        response.setHeader('access-control-allow-origin', '*');
        await this.fastLane.handle(input);
      } else {
        await this.handler.handleSafe(input);
      }
    } catch (error: unknown) {
      this.logger.error(`${request.method} ${request.url}: ${(error as Error).message}`);
      if (response.headersSent) {
        response.end();
      } else {
        response.writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'internal_error', message: 'The server could not complete the request.' }));
      }
    } finally {
      if (!response.headersSent) {
        response.writeHead(404).end();
      }
    }
  }
}
