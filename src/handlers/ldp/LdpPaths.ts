import type { UserStorageLocationStrategy } from '../../plugins/ldp/UserStorageLocationStrategy';
import type { IncomingMessage } from 'node:http';
import { canonicalTarget } from '../http/CanonicalTarget';
import type { OperationTarget } from '../http/Operation';

/**
 * Maps request URLs onto resource IRIs under the configured base URL (never the Host header,
 * so a server behind a proxy generates the same IRIs whatever name it was reached by).
 */
export class LdpPaths {
  private readonly base: URL;

  /** @param storages - Where users have storages of their own; none: the root is the only storage. */
  public constructor(baseUrl: string, private readonly storages?: UserStorageLocationStrategy) {
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  }

  public get baseUrl(): string {
    return this.base.href;
  }

  /** The root of the storage `iri` is in. */
  public storageOf(iri: string): string {
    return this.storages?.storageOf(iri) ?? this.base.href;
  }

  /**
   * The IRI a request addresses, and its query; undefined for URLs outside the base path or that
   * cannot be decoded. Paths are canonicalised exactly as CSS's OriginalUrlExtractor does
   * (each segment re-encoded, repeated slashes merged), so both paths name the same resources.
   * From the pipeline's operation target, already canonical, nothing is parsed again.
   */
  public resolve(from: IncomingMessage | OperationTarget): { iri: string; query: URLSearchParams; path: string } | undefined {
    const canonical = 'sent' in from ?
      { pathname: from.path, search: from.search } :
      canonicalTarget(from.url ?? '/');
    if (!canonical || !canonical.pathname.startsWith(this.base.pathname)) {
      return undefined;
    }
    const path = canonical.pathname.slice(this.base.pathname.length - 1);
    return { iri: `${this.base.origin}${canonical.pathname}`, query: new URLSearchParams(canonical.search), path };
  }

  /** Paths CSS keeps for itself: auxiliary resources, well-known documents and internal data. */
  public isReservedPath(path: string): boolean {
    // A storage description may be any storage's (`/pods/alice/.well-known/solid`), not only the root's.
    return path.startsWith('/.well-known/') || path.includes('/.well-known/solid') || path.startsWith('/.internal/') ||
      path.startsWith('/.account/') ||
      path.endsWith('.acl') || path.endsWith('.meta') || path.endsWith('.acr');
  }
}
