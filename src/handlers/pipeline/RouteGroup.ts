import type { Guard } from './Guard';
import type { Route } from './Route';

/**
 * The routes of one part of a setup (its accounts, its federation, its webhooks...), in the order
 * that part lists them. The request pipeline takes a fixed list of groups, one per part; a setup
 * without a part gives that part's group no routes.
 */
export class RouteGroup {
  public readonly routes: Route[];

  /**
   * @param routes - The part's routes.
   * @param guards - Checks every route of the group runs first (the Mastodon API's rate limits).
   */
  public constructor(routes: Route[], guards: Guard[] = []) {
    this.routes = guards.length > 0 ? routes.map((route): Route => route.withGuards(guards)) : routes;
  }
}
