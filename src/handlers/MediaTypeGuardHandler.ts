import type { HttpHandlerInput } from '@solid/community-server';
import { NOT_HANDLED } from './NotHandled';
import { unsupportedMediaType } from '../util/HttpErrors';
import { mediaTypeOf } from './HttpUtil';
import { JsonHttpHandler } from './JsonHttpHandler';

const BODY_METHODS = new Set([ 'POST', 'PUT', 'PATCH' ]);

/**
 * The store keeps RDF only: a write whose body is not in a media type Fedpod or CSS can read as RDF
 * (or as a patch) is refused with 415 up front, instead of CSS's 501 "no conversion path".
 * Paths that take other bodies (webhooks, /sparql...) are listed as exempt.
 */
export class MediaTypeGuardHandler extends JsonHttpHandler {
  /**
   * @param acceptedTypes - Media types a write may carry.
   * @param exemptPrefixes - Path prefixes with their own media type rules.
   */
  public constructor(
    private readonly acceptedTypes: string[],
    private readonly exemptPrefixes: string[] = [],
  ) {
    super();
  }

  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    if (!BODY_METHODS.has(request.method ?? '')) {
      throw NOT_HANDLED;
    }
    const path = (request.url ?? '/').split('?')[0];
    if (this.exemptPrefixes.some((prefix): boolean => path.startsWith(prefix))) {
      throw NOT_HANDLED;
    }
    const type = mediaTypeOf(request.headers['content-type']);
    const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    if ((type === '' && !hasBody) || this.acceptedTypes.includes(type)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request }: HttpHandlerInput): Promise<void> {
    request.resume();
    const type = mediaTypeOf(request.headers['content-type']) || '(none)';
    throw unsupportedMediaType(`Content-Type ${type} is not accepted here; send one of: ${this.acceptedTypes.join(', ')}.`);
  }
}
