import type { Operation } from '../http/Operation';

/**
 * A check a route declares (a rate limit), run once the request is authenticated and before its
 * access policy: throws the HTTP error to answer (a 429 with Retry-After) when the request may not
 * go on. A route group's guards hold for each of its routes.
 */
export interface Guard {
  check: (operation: Operation) => Promise<void>;
}
