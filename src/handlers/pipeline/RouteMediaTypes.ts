import type { IncomingMessage } from 'node:http';
import { unsupportedMediaType } from '../../util/HttpErrors';
import { mediaTypeOf } from '../http/HttpUtil';

const BODY_METHODS = new Set([ 'POST', 'PUT', 'PATCH' ]);
/** type/subtype, each an RFC 9110 token. */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/u;

/** Whether `type` is one of `accepted`: exact names, or `application/*+json` for every such suffixed type. */
export function mediaTypeAccepted(type: string, accepted: string[]): boolean {
  return accepted.some((entry): boolean => {
    const wildcard = entry.indexOf('/*+');
    if (wildcard < 0) {
      return entry === type;
    }
    return type.startsWith(entry.slice(0, wildcard + 1)) && type.endsWith(entry.slice(wildcard + 2)) &&
      type.length > entry.length - 1;
  });
}

/**
 * The route's media type step: a POST, PUT or PATCH that carries a body (or names its type) of a
 * type the route does not take is refused with 415 before its handler reads any of it. An empty list
 * takes any type, but a Content-Type that is not a media type at all is a 415 on every route.
 */
export function checkMediaType(request: IncomingMessage, accepted: string[]): void {
  if (!BODY_METHODS.has(request.method ?? '')) {
    return;
  }
  const type = mediaTypeOf(request.headers['content-type']);
  if (type !== '' && !MEDIA_TYPE.test(type)) {
    throw unsupportedMediaType(`Content-Type ${JSON.stringify(type.slice(0, 100))} is not a media type.`);
  }
  if (accepted.length === 0) {
    return;
  }
  const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
  if ((type === '' && !hasBody) || mediaTypeAccepted(type, accepted)) {
    return;
  }
  throw unsupportedMediaType(`Content-Type ${type || '(none)'} is not accepted here; send one of: ${accepted.join(', ')}.`);
}
