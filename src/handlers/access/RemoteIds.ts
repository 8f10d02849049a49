import type { IncomingMessage } from 'node:http';

/** The `id` query parameter of a request for a copy of another server's object (`{base}remote?id=<iri>`). */
export function remoteIdOf(request: IncomingMessage): string | undefined {
  const query = (request.url ?? '').split('?')[1];
  return query === undefined ? undefined : new URLSearchParams(query).get('id') ?? undefined;
}
