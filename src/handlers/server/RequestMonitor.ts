import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Metrics } from '../../plugins/observability/Metrics';
import type { PinoLoggerFactory, StructuredLog } from '../../plugins/observability/PinoLoggerFactory';
import { RequestContext } from '../../plugins/observability/RequestContext';
import type { RouteTemplates } from '../../plugins/observability/RouteTemplates';

/** What serving a request tells its monitor: the route template the pipeline matched. */
export interface RouteLabel {
  route?: string;
}

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

  /** Serves the request through `serve` within its request scope; `serve` names the route in `scope`. */
  public track<T>(request: IncomingMessage, response: ServerResponse, serve: (scope: RouteLabel) => T): T {
    const scope: RouteLabel = {};
    const id = RequestContext.idFor(request.headers['x-request-id']);
    response.setHeader('x-request-id', id);
    const logging = this.log.isLevelEnabled('info');
    if (logging || this.metrics.enabled) {
      const start = performance.now();
      response.once('close', (): void => this.done(request, response, scope, id, start, logging));
    }
    return this.carryIds ? RequestContext.run({ id }, (): T => serve(scope)) : serve(scope);
  }

  private done(request: IncomingMessage, response: ServerResponse, scope: RouteLabel, id: string, start: number, logging: boolean): void {
    const ms = performance.now() - start;
    const status = response.writableFinished ? response.statusCode : CLIENT_CLOSED;
    const method = request.method ?? 'GET';
    const route = scope.route ?? this.routes.classify(request.url);
    if (this.metrics.enabled) {
      this.metrics.httpRequest(method, route, status, ms / 1000);
    }
    if (logging) {
      this.log.info({ reqId: id, method, route, status, ms: Math.round(ms * 100) / 100 }, 'request');
    }
  }
}
