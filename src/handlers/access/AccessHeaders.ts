import type { IncomingMessage } from 'node:http';

const headers = new WeakMap<IncomingMessage, Record<string, string>>();

/**
 * The headers an access decision gives the answer (`WAC-Allow`, and `Link rel="acl"` under WebACL),
 * set by the route's policy and written by the handlers that write their answers themselves.
 */
export const AccessHeaders = {
  set(request: IncomingMessage, values: Record<string, string>): void {
    headers.set(request, values);
  },
  of(request: IncomingMessage): Record<string, string> | undefined {
    return headers.get(request);
  },
  /** `WAC-Allow` for the modes the requester and the public have. */
  wacAllow(user: readonly string[], everyone: readonly string[]): string {
    return `user="${user.join(' ')}",public="${everyone.join(' ')}"`;
  },
};
