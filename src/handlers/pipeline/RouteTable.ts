import Router from 'find-my-way';
import type { HTTPMethod } from 'find-my-way';
import type { Route } from './Route';

export interface RouteMatch {
  route: Route;
  /** The template that matched, as the route declares it (a label for logs and metrics). */
  template: string;
  params: Record<string, string | undefined>;
}

const ALL_METHODS: HTTPMethod[] = [ 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS' ];

/**
 * The routes in a radix tree (find-my-way): a request finds its route by method and path in one
 * lookup, the most specific template winning, whatever order the config lists them in. A template
 * registered twice for one method is refused at start-up.
 */
export class RouteTable {
  private readonly router = Router({ ignoreDuplicateSlashes: false, caseSensitive: true });
  private readonly basePath: string;

  public constructor(baseUrl: string, routes: Route[]) {
    const path = new URL(baseUrl).pathname;
    this.basePath = path.endsWith('/') ? path.slice(0, -1) : path;
    for (const route of routes) {
      const methods = route.methods.length > 0 ? route.methods.map((method): HTTPMethod => method.toUpperCase() as HTTPMethod) : ALL_METHODS;
      for (const template of route.paths) {
        try {
          this.router.on(methods, `${this.basePath}${template}`, (): void => undefined, { route, template });
        } catch (error: unknown) {
          throw new Error(`Route ${route.name}: ${template} cannot be added: ${(error as Error).message}`);
        }
      }
    }
  }

  /** The route of a request path (without its query), or undefined. */
  public find(method: string, path: string): RouteMatch | undefined {
    const found = this.router.find(method as HTTPMethod, path);
    if (!found) {
      return undefined;
    }
    const { route, template } = found.store as { route: Route; template: string };
    return { route, template, params: found.params };
  }
}
