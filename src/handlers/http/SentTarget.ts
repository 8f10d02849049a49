import type { IncomingMessage } from 'node:http';

const sent = new WeakMap<IncomingMessage, string>();

/**
 * The request target as the client sent it, before the pipeline gave it its canonical spelling
 * (`request.url` then holds the canonical one): what an HTTP signature's `(request-target)` or
 * `@target-uri` covers.
 */
export const SentTarget = {
  set(request: IncomingMessage, target: string): void {
    sent.set(request, target);
  },
  of(request: IncomingMessage): string {
    return sent.get(request) ?? request.url ?? '/';
  },
};
