import type { IncomingMessage } from 'node:http';

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (!header) {
    return undefined;
  }
  // The scheme name is case-insensitive (RFC 7235 §2.1).
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/iu.exec(header);
  return match?.[1];
}
