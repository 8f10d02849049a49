import type { IncomingMessage, Server } from 'node:http';
import { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { HttpHandler } from '@solid/community-server';
import { getLoggerFor, guardStream, ServerConfigurator } from '@solid/community-server';
import type { RequestMonitor, RouteLabel } from '../server/RequestMonitor';
import { badRequest, FedpodHttpError, methodNotAllowed, payloadTooLarge, unauthorized } from '../../util/HttpErrors';
import type { AccessPolicy } from '../access/AccessPolicy';
import type { ReadDecider, ReadDecisions } from '../access/ReadDecisions';
import { discardBody, sendError } from '../http/HttpUtil';
import { NOT_HANDLED } from '../http/NotHandled';
import type { Agent } from '../http/Agent';
import type { Authenticator } from './Authenticator';
import type { Guard } from './Guard';
import { Cors } from './Cors';
import { checkMediaType } from './RouteMediaTypes';
import { checkSingleValuedHeaders } from './SingleValuedHeaders';
import type { OperationInput } from '../http/Operation';
import { Operation } from '../http/Operation';
import { Route } from './Route';
import type { RouteGroup } from './RouteGroup';
import type { RouteMatch } from './RouteTable';
import { RouteTable } from './RouteTable';
import { statusOf } from '../../util/Errors';

/** What the pipeline is made of (an options object: more than six parts). */
export interface RequestPipelineOptions {
  /** Public base URL. */
  baseUrl: string;
  /** The route table's entries, one group per part of the setup. */
  routes: RouteGroup[];
  /** Access policy of paths no route names (the LDP resources: read-only, public append or WebACL per setup). */
  defaultAccess: AccessPolicy;
  /** Handler of the LDP paths (routes that name none): Fedpod's LDP handlers, then CSS's. */
  defaultHandler: HttpHandler;
  authenticator: Authenticator;
  /** Largest request body any route takes (a route may lower it). */
  maxBodyBytes: number;
  /** Gives every request its id, log line and metrics. */
  monitor?: RequestMonitor;
  /** Where the pipeline's read rules are offered to components that judge reads outside a request. */
  readDecisions?: ReadDecisions;
  /** Guards of the LDP paths (rate limits of writes). */
  defaultGuards?: Guard[];
}

/**
 * The one path every request takes: CORS (a preflight is answered on every route), the route table
 * (find-my-way), the route's body limit, its admission (load shedding, QueueBacklogAdmission),
 * one of each credential header (SingleValuedHeaders), authentication (Authenticator), the route's guards
 * (rate limits, RateLimitGuard), the route's authorization
 * (its AccessPolicy), the route's media types, and only then its handler. No handler is reached without those
 * steps, whichever handler it is: each route names its own, and paths no route names are LDP
 * resources served by the default handler (Fedpod's LDP handlers, then CSS's). The steps build one
 * Operation (route, parameters, parsed target, agent, access decision) that the handler receives
 * with the request (OperationInput). Errors of the steps answer `{ "error", "message" }` JSON.
 */
export class RequestPipeline extends ServerConfigurator implements ReadDecider {
  protected readonly logger = getLoggerFor(this);
  private readonly table: RouteTable;
  private readonly fallback: Route;
  private readonly origin: string;

  public constructor(private readonly options: RequestPipelineOptions) {
    super();
    this.table = new RouteTable(options.baseUrl, options.routes.flatMap((group): Route[] => group.routes));
    // LDP resources are of any media type: RDF is stored as triples, anything else as a file.
    this.fallback = new Route({ name: 'ldp', paths: [], access: options.defaultAccess, guards: options.defaultGuards });
    this.origin = new URL(options.baseUrl).origin;
    options.readDecisions?.attach(this);
  }

  public async handle(server: Server): Promise<void> {
    const monitor = this.options.monitor;
    server.on('request', (request: IncomingMessage, response: ServerResponse): void => {
      if (monitor) {
        void monitor.track(request, response, async(scope): Promise<void> => this.serve(request, response, scope));
      } else {
        void this.serve(request, response);
      }
    });
  }

  /**
   * Whether `agent` may read `iri` by the rules a GET of it meets (its route's access policy), for a
   * decision made outside a request for the resource itself: a notification subscription.
   */
  public async mayRead(iri: string, agent: Agent): Promise<boolean> {
    let url: URL;
    try {
      url = new URL(iri);
    } catch {
      return false;
    }
    const target = Operation.parseTarget(this.origin, `${url.pathname}${url.search}`);
    if (url.origin !== this.origin || !target || target.path !== url.pathname) {
      return false;
    }
    const found = this.table.find('GET', url.pathname);
    if (found && !('route' in found)) {
      return false;
    }
    const match = found;
    const { route, params } = match ?? { route: this.fallback, params: {}};
    // A request of the resource, as the policy would see it: a GET by this agent, without a body.
    const request = guardStream(Object.assign(new PassThrough(), { method: 'GET', url: url.pathname, headers: {}}) as unknown as IncomingMessage);
    request.resume();
    const operation = new Operation({ request, response: new ServerResponse(request), target, agent, params,
      route: { name: route.name, template: match?.template }});
    try {
      await route.access.authorize(operation);
      return true;
    } catch (error: unknown) {
      if (error instanceof FedpodHttpError || typeof statusOf(error) === 'number') {
        return false;
      }
      throw error;
    }
  }

  private async serve(request: IncomingMessage, response: ServerResponse, scope?: RouteLabel): Promise<void> {
    const guarded = guardStream(request);
    guarded.on('error', (error: Error): void => {
      this.logger.error(`Request error: ${error.message}`);
    });
    try {
      // Any answer may depend on what is asked for, by whom and from which page: caches keep them apart.
      response.setHeader('vary', 'Accept, Authorization, Origin');
      Cors.decorate(request, response);
      if (Cors.isPreflight(request)) {
        Cors.answerPreflight(request, response);
        return;
      }
      // Every step and every handler sees one spelling of the target: a resource cannot be reached
      // under another spelling that the router or a policy would take for another resource.
      const target = Operation.parseTarget(this.origin, request.url ?? '/');
      if (!target) {
        throw badRequest('The request target is not a valid path.', 'invalid_path');
      }
      const path = target.path;
      request.url = `${path}${target.search}`;
      const method = request.method ?? 'GET';
      const found = this.table.find(method, path);
      if (found && !('route' in found)) {
        if (scope) {
          scope.route = found.template;
        }
        throw methodNotAllowed(`${method} is not allowed here.`, found.allowed.join(', '));
      }
      const match: RouteMatch | undefined = found;
      const { route, params } = match ?? { route: this.fallback, params: {}};
      if (match && scope) {
        scope.route = match.template;
      }
      this.checkDeclaredLength(request, route.maxBodyBytes ?? this.options.maxBodyBytes);
      // Only a route that declares one awaits it: `await undefined` would cost every other request a promise.
      if (route.admission) {
        await route.admission.admit();
      }
      checkSingleValuedHeaders(request);
      const operation = new Operation({ request: guarded, response, target, params, route: { name: route.name, template: match?.template }});
      if (route.authenticate) {
        operation.authenticated(await this.options.authenticator.authenticate(operation));
      }
      // Only now: CSS's credentials extractor, asked while authenticating, must not take this
      // request's (still anonymous) operation for the pipeline's answer (PipelineAgentExtractor).
      operation.bind(request);
      // Before the access policy: a guessed password or token is counted whatever the answer.
      for (const guard of route.guards) {
        await guard.check(operation);
      }
      if (operation.agent.scopes !== undefined && route.access.acceptsScopedTokens !== true) {
        throw unauthorized('This token of an app counts on the Mastodon client API only.', 'invalid_token');
      }
      await route.access.authorize(operation);
      // After authorization: who may not write here learns nothing of what the route takes.
      checkMediaType(request, route.mediaTypes);
      await this.dispatch(route, { request: guarded, response, operation });
    } catch (error: unknown) {
      this.refuse(request, response, error);
    } finally {
      if (!response.headersSent) {
        response.writeHead(404).end();
      }
    }
  }

  private async dispatch(route: Route, input: OperationInput): Promise<void> {
    if (!route.handler) {
      await this.options.defaultHandler.handleSafe(input);
      return;
    }
    try {
      await route.handler.canHandle(input);
    } catch (error: unknown) {
      if (error !== NOT_HANDLED) {
        throw error;
      }
      const read = input.request.method === 'GET' || input.request.method === 'HEAD';
      throw read ?
        new FedpodHttpError(406, 'not_acceptable', 'This resource is not available in the asked media type.') :
        new FedpodHttpError(405, 'method_not_allowed', `${input.request.method} is not allowed here.`);
    }
    await route.handler.handle(input);
  }

  /** A declared body over the limit is refused before anything else is done. */
  private checkDeclaredLength(request: IncomingMessage, limit: number): void {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      throw payloadTooLarge(`The body is larger than the limit of ${limit} bytes.`);
    }
  }

  private refuse(request: IncomingMessage, response: ServerResponse, error: unknown): void {
    const status = statusOf(error);
    if (typeof status !== 'number' || status >= 500 && status !== 503) {
      this.logger.error(`${request.method} ${request.url}: ${(error as Error).stack ?? String(error)}`);
    }
    // The client may still be sending: read and drop its body (up to discardBody's cap) so that it gets
    // to read the answer instead of a connection reset.
    discardBody(request);
    sendError(response, error, request);
  }
}
