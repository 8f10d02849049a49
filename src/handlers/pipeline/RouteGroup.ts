import type { Route } from './Route';

/**
 * The routes of one part of a setup (its accounts, its federation, its webhooks...), in the order
 * that part lists them. The request pipeline takes a fixed list of groups, one per part; a setup
 * without a part gives that part's group no routes.
 */
export class RouteGroup {
  /**
   * @param routes - The part's routes.
   */
  public constructor(public readonly routes: Route[]) {}
}
