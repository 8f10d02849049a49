import type { HttpRequest, ResourceIdentifier } from '@solid/community-server';
import { BadRequestHttpError, NotFoundHttpError, TargetExtractor, toCanonicalUriPath } from '@solid/community-server';
import { LdpPaths } from './LdpPaths';

/**
 * Tells CSS's pipeline which resource a request addresses: its path under the configured base URL,
 * whatever its Host, Forwarded or X-Forwarded-* headers say. CSS's OriginalUrlExtractor rebuilds
 * the URL from those headers, which any client can send: a request with another Host (or a proxy
 * that forgot X-Forwarded-Proto) then fell outside the identifier space and got a 500. Fedpod's own
 * handlers already map paths this way (LdpPaths), so both name the same resources.
 */
export class BaseUrlTargetExtractor extends TargetExtractor {
  private readonly paths: LdpPaths;

  /**
   * @param baseUrl - Public base URL.
   * @param includeQueryString - Whether the query string is part of the identifier (as in CSS).
   */
  public constructor(baseUrl: string, private readonly includeQueryString = true) {
    super();
    this.paths = new LdpPaths(baseUrl);
  }

  public async handle({ request }: { request: HttpRequest }): Promise<ResourceIdentifier> {
    if (!request.url?.startsWith('/')) {
      throw new BadRequestHttpError('The request target must be a path.');
    }
    const resolved = this.paths.resolve(request);
    if (!resolved) {
      // Outside the base path, or not a path that names a resource (dot segments, bad encoding).
      throw new NotFoundHttpError('No resource at this path.');
    }
    // The query string as the client sent it (canonicalised as the path was, never re-serialised).
    const search = /\?.*$/u.exec(toCanonicalUriPath(request.url.split('#')[0]))?.[0] ?? '';
    return { path: this.includeQueryString && search.length > 1 ? `${resolved.iri}${search}` : resolved.iri };
  }
}
