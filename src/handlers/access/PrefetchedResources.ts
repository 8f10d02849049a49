import type { IncomingMessage } from 'node:http';
import type { StoredResource } from '../../storage/ResourceGraphs';

const prefetched = new WeakMap<IncomingMessage, { iri: string; stored: StoredResource }>();

/**
 * A resource an access policy read to decide (its addressing is in its data), kept for the request's
 * handler so that authorizing a read does not cost a second query.
 */
export const PrefetchedResources = {
  set(request: IncomingMessage, iri: string, stored: StoredResource): void {
    prefetched.set(request, { iri, stored });
  },
  /** The resource read for `iri` while authorizing this request, if any. */
  take(request: IncomingMessage, iri: string): StoredResource | undefined {
    const entry = prefetched.get(request);
    return entry?.iri === iri ? entry.stored : undefined;
  },
};
