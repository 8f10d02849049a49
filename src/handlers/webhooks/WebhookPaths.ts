import { LdpPaths } from '../ldp/LdpPaths';
import type { OperationTarget } from '../http/Operation';

/**
 * Whether a request falls under a path prefix, judged on the canonical path the pipeline gave it, as
 * the LDP handlers and CSS see it (so `/%77ebhooks/x` or `//webhooks/x` cannot slip past a guard to
 * the store; a path that has no canonical form was refused by the pipeline already).
 */
export class WebhookPaths {
  private readonly paths: LdpPaths;

  public constructor(baseUrl: string) {
    this.paths = new LdpPaths(baseUrl);
  }

  /**
   * The IRI the request addresses when it is `container` itself (with or without its final slash) or
   * under it; undefined when not ours.
   */
  public match(target: OperationTarget, container: string): string | undefined {
    const resolved = this.paths.resolve(target);
    const bare = container.slice(0, -1);
    const iri = resolved?.iri;
    return iri !== undefined && (iri === bare || iri.startsWith(container)) ? iri : undefined;
  }
}
