import type { IncomingMessage } from 'node:http';
import { badRequest } from '../../util/HttpErrors';

/**
 * Refuses with 400 `duplicate_header` a request that sends twice a header naming who it is from:
 * `Authorization` and `DPoP` always, and on a signed request its `Date` and a draft-cavage
 * `Signature` (one without `Signature-Input`: RFC 9421's `Signature` and `Signature-Input` are
 * dictionaries, which may be split over several lines). Why: Node keeps the first `Authorization`
 * and joins the others with ", ", so two credentials were read as one of them (the first won), and
 * a joined signature or date is not what its sender signed. `Digest` is a list and may repeat.
 * Read from `rawHeaders`, as sent; most requests carry none of these and cost one look-up each.
 */
export function checkSingleValuedHeaders(request: IncomingMessage): void {
  const headers = request.headers;
  const signed = headers.signature !== undefined || headers['signature-input'] !== undefined;
  if (headers.authorization === undefined && headers.dpop === undefined && !signed) {
    return;
  }
  const single = new Set([ 'authorization', 'dpop' ]);
  if (signed) {
    single.add('date');
    if (headers['signature-input'] === undefined) {
      single.add('signature');
    }
  }
  const seen = new Set<string>();
  const raw = request.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index].toLowerCase();
    if (!single.has(name)) {
      continue;
    }
    if (seen.has(name)) {
      throw badRequest(`The request has more than one ${raw[index]} header; send one.`, 'duplicate_header');
    }
    seen.add(name);
  }
}
