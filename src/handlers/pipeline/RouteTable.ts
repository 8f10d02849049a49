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

const ALL_METHODS: HTTPMethod[] = [ 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS' ];

/**
 * The routes in a radix tree (find-my-way): a request finds its route by method and path in one
 * lookup, the most specific template winning, whatever order the config lists them in. Routes that
 * name their methods are placed first; a route that names none takes the methods left on its
 * templates. A template claimed twice for one method is refused at start-up.
 */
export class RouteTable {
  private readonly router = Router({ ignoreDuplicateSlashes: false, caseSensitive: true });
  private readonly basePath: string;

  public constructor(baseUrl: string, routes: Route[]) {
    const path = new URL(baseUrl).pathname;
    this.basePath = path.endsWith('/') ? path.slice(0, -1) : path;
    const claimed = new Map<string, Set<string>>();
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
        try {
          this.router.on(methods, `${this.basePath}${template}`, (): void => undefined, { route, template });
        } catch (error: unknown) {
          throw new Error(`Route ${route.name}: ${template} cannot be added: ${messageOf(error)}`);
        }
      }
    }
  }

  /**
   * The route of a request path (without its query), or undefined. A `:name` segment is never empty:
   * `/actors/` is the container, not the actor `/actors/:user` with an empty name.
   */
  public find(method: string, path: string): RouteMatch | undefined {
    const found = this.router.find(method as HTTPMethod, path);
    if (!found || Object.entries(found.params).some(([ name, value ]): boolean => name !== '*' && !value)) {
      return undefined;
    }
    const { route, template } = found.store as { route: Route; template: string };
    return { route, template, params: found.params };
  }
}
