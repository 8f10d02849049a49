import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthOutcome } from './BasicAuthGuard';

/** One request as the handlers see it: the URL already split, auth already checked. */
export interface StoreRequestContext {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  /** Path part of the URL, not decoded. */
  readonly path: string;
  /** Query string without the '?', or ''. */
  readonly search: string;
  readonly auth: AuthOutcome;
}
