import type { OperationInput } from '../http/Operation';
import { negotiate } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import { allowAnyOrigin, JRD, basePathOf, parseBaseUrl, requireGetOrHead, sendDocument } from './DiscoveryHttp';

/** The XRD media type (RFC 6415). */
export const XRD = 'application/xrd+xml';

/** Offered for /.well-known/host-meta: XRD unless the client explicitly prefers JSON. */
const HOST_META_OFFERS = [ XRD, 'application/xml', 'text/xml', JRD, 'application/json' ];

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/gu, (char): string => `&#${char.charCodeAt(0)};`);
}

/**
 * Host metadata (RFC 6415) at `{base}.well-known/host-meta` (XRD XML) and `{base}.well-known/host-meta.json`
 * (JRD): one `lrdd` link whose template is the WebFinger endpoint, for the clients that still start there.
 * `host-meta` answers JRD too when the Accept header names application/jrd+json or application/json
 * ahead of the XML types (RFC 6415 §6.2). GET and HEAD only (else 405).
 */
export class HostMetaHandler extends JsonHttpHandler {
  private readonly xmlPath: string;
  private readonly jsonPath: string;
  private readonly xrdBody: string;
  private readonly jrdBody: string;

  /**
   * @param baseUrl - Public base URL; the endpoints are `{baseUrl}.well-known/host-meta` and `.../host-meta.json`.
   */
  public constructor(baseUrl: string) {
    super();
    const base = parseBaseUrl(baseUrl);
    const prefix = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
    this.xmlPath = `${basePathOf(base)}.well-known/host-meta`;
    this.jsonPath = `${this.xmlPath}.json`;
    const template = `${prefix}.well-known/webfinger?resource={uri}`;
    this.xrdBody = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">',
      `  <Link rel="lrdd" template="${escapeXml(template)}"/>`,
      '</XRD>',
      '',
    ].join('\n');
    this.jrdBody = JSON.stringify({ links: [{ rel: 'lrdd', template }]});
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    const requested = operation.target.path;
    // OPTIONS (CORS preflight) is left to CSS.
    if ((requested !== this.xmlPath && requested !== this.jsonPath) || request.method === 'OPTIONS') {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    allowAnyOrigin(response);
    requireGetOrHead(request);
    const headers: Record<string, string> = { 'cache-control': 'public, max-age=3600' };
    let json = true;
    if (operation.target.path === this.xmlPath) {
      const chosen = negotiate(request.headers.accept, HOST_META_OFFERS);
      json = chosen !== undefined && !chosen.wildcard && (chosen.type === JRD || chosen.type === 'application/json');
    }
    if (json) {
      sendDocument(request, response, `${JRD}; charset=utf-8`, this.jrdBody, headers);
    } else {
      sendDocument(request, response, `${XRD}; charset=utf-8`, this.xrdBody, headers);
    }
  }
}
