import type { IncomingMessage } from 'node:http';
import { normalizeUriPathSlashes, toCanonicalUriPath } from '@solid/community-server';

/** A path of characters that encodeURIComponent leaves alone and that have no special meaning in a path. */
const PLAIN_PATH = /^[A-Za-z0-9\-._~/]*$/u;

/**
 * Maps request URLs onto resource IRIs under the configured base URL (never the Host header,
 * so a server behind a proxy generates the same IRIs whatever name it was reached by).
 */
export class LdpPaths {
  private readonly base: URL;

  public constructor(baseUrl: string) {
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  }

  public get baseUrl(): string {
    return this.base.href;
  }

  /**
   * The IRI a request addresses, and its query; undefined for URLs outside the base path or that
   * cannot be decoded. Paths are canonicalised exactly as CSS's OriginalUrlExtractor does
   * (each segment re-encoded, repeated slashes merged), so both paths name the same resources.
   */
  public resolve(request: IncomingMessage): { iri: string; query: URLSearchParams; path: string } | undefined {
    // Request targets carry no fragment; drop one if a client sends it anyway.
    const raw = (request.url ?? '/').split('#')[0];
    if (!raw.startsWith('/')) {
      return undefined;
    }
    const queryAt = raw.indexOf('?');
    const rawPath = queryAt < 0 ? raw : raw.slice(0, queryAt);
    let pathname: string;
    let search: string;
    if (PLAIN_PATH.test(rawPath) && !rawPath.includes('//')) {
      // Already canonical: re-encoding each segment would give it back unchanged.
      pathname = rawPath;
      search = queryAt < 0 ? '' : raw.slice(queryAt);
    } else {
      let canonical: string;
      try {
        canonical = toCanonicalUriPath(raw);
      } catch {
        return undefined;
      }
      const parts = /^([^?]*)(.*)$/u.exec(canonical)!;
      pathname = normalizeUriPathSlashes(parts[1]);
      search = parts[2];
    }
    if (/(?:^|\/)\.{1,2}(?:\/|$)/u.test(pathname) || !pathname.startsWith(this.base.pathname)) {
      return undefined;
    }
    const path = pathname.slice(this.base.pathname.length - 1);
    return { iri: `${this.base.origin}${pathname}`, query: new URLSearchParams(search), path };
  }

  /** Paths CSS keeps for itself: auxiliary resources, well-known documents and internal data. */
  public isReservedPath(path: string): boolean {
    return path.startsWith('/.well-known/') || path.startsWith('/.internal/') || path.startsWith('/.account/') ||
      path.endsWith('.acl') || path.endsWith('.meta') || path.endsWith('.acr');
  }
}
