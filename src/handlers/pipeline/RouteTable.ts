import Router from 'find-my-way';
import type { HTTPMethod } from 'find-my-way';
import type { Route } from './Route';
import { messageOf } from '../../util/Errors';

export interface RouteMatch {
  route: Route;
  /** The template that matched, as the route declares it (a label for logs and metrics). */
  template: string;
  params: Record<string, string | undefined>;
}

/** A path some routes serve, asked with a method none of them takes. */
export interface MethodMismatch {
  /** The methods the path's routes take, for `Allow`. */
  allowed: string[];
  template: string;
}

const ALL_METHODS: HTTPMethod[] = [ 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS' ];
// OPTIONS is left out of the refusals: a preflight is answered before the table, and a plain OPTIONS keeps
// reaching what it reached before.
const REFUSED_METHODS: HTTPMethod[] = [ 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE' ];

/**
 * The routes in a radix tree (find-my-way): a request finds its route by method and path in one
 * lookup, the most specific template winning, whatever order the config lists them in. Routes that
 * name their methods are placed first; a route that names none takes the methods left on its
 * templates. A template claimed twice for one method is refused at start-up. A request no route takes
 * whose path some template serves is a mismatch (answered 405 with `Allow`), unless that template's
 * route leaves other methods to the LDP resources (`otherMethods: 'ldp'`).
 */
export class RouteTable {
  private readonly router = Router({ ignoreDuplicateSlashes: false, caseSensitive: true });
  /** Every template with the methods its routes take, asked only when no route takes the request. */
  private readonly served = Router({ ignoreDuplicateSlashes: false, caseSensitive: true });
  private readonly basePath: string;

  public constructor(baseUrl: string, routes: Route[]) {
    const path = new URL(baseUrl).pathname;
    this.basePath = path.endsWith('/') ? path.slice(0, -1) : path;
    const claimed = new Map<string, Set<string>>();
    const toLdp = new Set<string>();
    const ordered = [ ...routes.filter((route): boolean => route.methods.length > 0),
      ...routes.filter((route): boolean => route.methods.length === 0) ];
    for (const route of ordered) {
      for (const template of route.paths) {
        const taken = claimed.get(template) ?? new Set<string>();
        claimed.set(template, taken);
        const methods = route.methods.length > 0 ?
          route.methods as HTTPMethod[] :
          ALL_METHODS.filter((method): boolean => !taken.has(method));
        const clash = methods.length === 0 ? 'every method is claimed by another route' :
          methods.filter((method): boolean => taken.has(method)).map((method): string => `${method} is claimed by another route`)[0];
        if (clash) {
          throw new Error(`Route ${route.name}: ${template} cannot be added: ${clash}`);
        }
        for (const method of methods) {
          taken.add(method);
        }
        if (route.otherMethods === 'ldp') {
          toLdp.add(template);
        }
        try {
          this.router.on(methods, `${this.basePath}${template}`, (): void => undefined, { route, template });
        } catch (error: unknown) {
          throw new Error(`Route ${route.name}: ${template} cannot be added: ${messageOf(error)}`);
        }
      }
    }
    for (const [ template, taken ] of claimed) {
      if (!toLdp.has(template) && REFUSED_METHODS.some((method): boolean => !taken.has(method))) {
        const mismatch: MethodMismatch = { allowed: ALL_METHODS.filter((method): boolean => taken.has(method)), template };
        this.served.on(REFUSED_METHODS, `${this.basePath}${template}`, (): void => undefined, { mismatch });
      }
    }
  }

  /**
   * The route of a request path (without its query), or undefined. A `:name` segment is never empty:
   * `/actors/` is the container, not the actor `/actors/:user` with an empty name.
   */
  public find(method: string, path: string): RouteMatch | MethodMismatch | undefined {
    const found = RouteTable.lookup(this.router, method, path);
    if (found) {
      const { route, template } = found.store as { route: Route; template: string };
      return { route, template, params: found.params };
    }
    return (RouteTable.lookup(this.served, method, path)?.store as { mismatch: MethodMismatch } | undefined)?.mismatch;
  }

  private static lookup(router: Router.Instance<Router.HTTPVersion.V1>, method: string, path: string):
  Router.FindResult<Router.HTTPVersion.V1> | undefined {
    const found = router.find(method as HTTPMethod, path);
    return found && !Object.entries(found.params).some(([ name, value ]): boolean => name !== '*' && !value) ?
      found :
      undefined;
  }
}
