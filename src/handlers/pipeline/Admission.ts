/**
 * A route's first step, before authentication: whether the server takes such a request now. Throws
 * the HTTP error to answer (a 503 with Retry-After) when it does not.
 */
export interface Admission {
  admit: () => Promise<void>;
}
