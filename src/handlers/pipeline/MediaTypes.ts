import type { IncomingMessage } from 'node:http';
import { unsupportedMediaType } from '../../util/HttpErrors';
import { mediaTypeOf } from '../HttpUtil';

const BODY_METHODS = new Set([ 'POST', 'PUT', 'PATCH' ]);

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
 * takes any type.
 */
export function checkMediaType(request: IncomingMessage, accepted: string[]): void {
  if (accepted.length === 0 || !BODY_METHODS.has(request.method ?? '')) {
    return;
  }
  const type = mediaTypeOf(request.headers['content-type']);
  const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
  if ((type === '' && !hasBody) || mediaTypeAccepted(type, accepted)) {
    return;
  }
  throw unsupportedMediaType(`Content-Type ${type || '(none)'} is not accepted here; send one of: ${accepted.join(', ')}.`);
}
