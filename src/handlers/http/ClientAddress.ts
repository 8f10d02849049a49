import type { IncomingMessage } from 'node:http';

/**
 * The address of the client that sent the request: the peer's, or behind a reverse proxy that the
 * operator trusts (`trustProxy`), the last address of `X-Forwarded-For` (the one that proxy saw;
 * addresses before it are the client's word and could be anything).
 */
export function clientAddress(request: IncomingMessage, trustProxy: boolean): string {
  const peer = request.socket.remoteAddress ?? 'unknown';
  if (!trustProxy) {
    return peer;
  }
  const header = request.headers['x-forwarded-for'];
  const value = Array.isArray(header) ? header.join(',') : header;
  const last = value?.split(',').map((part): string => part.trim()).filter(Boolean).pop();
  return last ?? peer;
}
