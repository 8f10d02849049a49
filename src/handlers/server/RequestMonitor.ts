import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Metrics } from '../../plugins/observability/Metrics';
import type { PinoLoggerFactory, StructuredLog } from '../../plugins/observability/PinoLoggerFactory';
import { RequestContext } from '../../plugins/observability/RequestContext';
import { RouteLabels } from '../../plugins/observability/RouteLabels';
import type { RouteTemplates } from '../../plugins/observability/RouteTemplates';

/** Status recorded for a request whose connection closed before the answer was complete. */
export const CLIENT_CLOSED = 499;

/**
 * What every HTTP request goes through (RequestPipeline): gives it an id (a well-formed
 * X-Request-Id from the client, else a new one), echoed in the X-Request-Id response header and
 * carried to every log line written while serving it; once the answer is done, writes one log line
 * at info (method, route template, status, duration, id) and records the request in the metrics.
 * Routes are templates (the route table's, else RouteTemplates'), never raw paths: they cannot hold
 * secrets or grow without bound.
 */
export class RequestMonitor {
  private readonly log: StructuredLog;

  /**
   * @param loggerFactory - The pino logger factory (the request lines are structured).
   * @param metrics - Where requests are counted.
   * @param routes - Names routes.
   * @param carryIds - Whether lines written while serving a request carry its id (AsyncLocalStorage,
   *   a little per promise); without, only the request line and the response header have it.
   */
  public constructor(
    loggerFactory: PinoLoggerFactory,
    private readonly metrics: Metrics,
    private readonly routes: RouteTemplates,
    private readonly carryIds = true,
  ) {
    this.log = loggerFactory.structured('http');
  }

  /** Serves the request through `serve` within its request scope. */
  public track<T>(request: IncomingMessage, response: ServerResponse, serve: () => T): T {
    const id = RequestContext.idFor(request.headers['x-request-id']);
    response.setHeader('x-request-id', id);
    const logging = this.log.isLevelEnabled('info');
    if (logging || this.metrics.enabled) {
      const start = performance.now();
      response.once('close', (): void => this.done(request, response, id, start, logging));
    }
    return this.carryIds ? RequestContext.run({ id }, serve) : serve();
  }

  private done(request: IncomingMessage, response: ServerResponse, id: string, start: number, logging: boolean): void {
    const ms = performance.now() - start;
    const status = response.writableFinished ? response.statusCode : CLIENT_CLOSED;
    const method = request.method ?? 'GET';
    const route = RouteLabels.get(request) ?? this.routes.classify(request.url);
    if (this.metrics.enabled) {
      this.metrics.httpRequest(method, route, status, ms / 1000);
    }
    if (logging) {
      this.log.info({ reqId: id, method, route, status, ms: Math.round(ms * 100) / 100 }, 'request');
    }
  }
}
