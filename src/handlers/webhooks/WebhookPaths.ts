import type { IncomingMessage } from 'node:http';
import { LdpPaths } from '../ldp/LdpPaths';

/**
 * Whether a request falls under a path prefix, judged on the canonical path, as the LDP handlers and
 * CSS see it (so `/%77ebhooks/x` or `//webhooks/x` cannot slip past a guard to the store). A request
 * whose path cannot be canonicalised but names the prefix after plain decoding is claimed too.
 */
export class WebhookPaths {
  private readonly paths: LdpPaths;

  public constructor(baseUrl: string) {
    this.paths = new LdpPaths(baseUrl);
  }

  /**
   * The IRI the request addresses when it is `container` itself (with or without its final slash) or
   * under it; `null` for a request that names it but cannot be resolved; undefined when not ours.
   */
  public match(request: IncomingMessage, container: string): string | null | undefined {
    const resolved = this.paths.resolve(request);
    const bare = container.slice(0, -1);
    if (resolved) {
      const iri = resolved.iri;
      return iri === bare || iri.startsWith(container) ? iri : undefined;
    }
    const name = new URL(bare).pathname;
    let decoded = (request.url ?? '').split('?')[0];
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      // Keep the raw path.
    }
    return decoded.replace(/\/{2,}/gu, '/').includes(name) ? null : undefined;
  }
}
