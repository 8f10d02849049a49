import type { DigestVerifier } from './DigestVerifier';
import type { VerifiableRequest, VerifyResult } from './HttpSignatureVerifier';
import {
  refusal,
  requestHeader,
  type SignatureCandidate,
  type SignatureCheck,
  type VerifyFailure,
} from './SignatureCheck';
import { pathAndQuery, type Rfc9421Algorithm } from './SignatureCommon';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/u;
const ALGORITHMS: Record<string, Rfc9421Algorithm | undefined> = {
  'rsa-sha256': 'rsa-v1_5-sha256',
  hs2019: undefined,
};
const BODY_METHODS = new Set([ 'POST', 'PUT', 'PATCH' ]);

/**
 * Verifies draft-cavage-http-signatures-12 `Signature` headers with Mastodon's rules:
 * `algorithm` `rsa-sha256`, `hs2019` or absent (then the key's type decides); `(request-target)`,
 * `host`, and `date` (or `(created)`) signed, and `digest` when the request has a body or is a
 * POST/PUT/PATCH; `Digest` must match the body; `Date`/`created` inside the check's window;
 * `expires` honoured. A signature over `(request-target)` without the query string (old Mastodon,
 * Fedify) is accepted.
 *
 * The header is not a structured field: real senders put spaces and commas in quoted `keyId`s and
 * leave numbers unquoted, so it has its own lenient parser (`parseCavageParams`).
 */
export class CavageSignatureVerifier {
  public constructor(private readonly digests: DigestVerifier) {}

  public async verify(request: VerifiableRequest, url: URL, check: SignatureCheck): Promise<VerifyResult> {
    const candidate = this.candidate(request, url, check);
    return 'ok' in candidate ? candidate : check.verify(candidate);
  }

  private candidate(request: VerifiableRequest, url: URL, check: SignatureCheck): SignatureCandidate | VerifyFailure {
    const params = parseCavageParams(requestHeader(request, 'signature') ?? '');
    if (params === undefined) {
      return refusal('malformed Signature header');
    }
    const keyId = params.get('keyid');
    const signatureText = params.get('signature');
    if (keyId === undefined || keyId === '') {
      return refusal('Signature has no keyId');
    }
    if (signatureText === undefined || !BASE64.test(signatureText) || signatureText.length === 0) {
      return refusal('Signature has no valid signature', keyId);
    }
    const algorithm = params.get('algorithm')?.toLowerCase();
    if (algorithm !== undefined && !(algorithm in ALGORITHMS)) {
      return refusal(`unsupported signature algorithm ${algorithm}`, keyId);
    }
    const names = (params.get('headers') ?? 'date').toLowerCase().split(' ').filter((name) => name !== '');
    if (new Set(names).size !== names.length) {
      return refusal('a header is signed twice', keyId);
    }
    const body = request.body ?? '';
    const needsDigest = BODY_METHODS.has(request.method.toUpperCase()) || body.length > 0;
    for (const required of [ '(request-target)', 'host', ...needsDigest ? [ 'digest' ] : [] ]) {
      if (!names.includes(required)) {
        return refusal(`${required} is not signed`, keyId);
      }
    }
    if (!names.includes('date') && !names.includes('(created)')) {
      return refusal('neither date nor (created) is signed', keyId);
    }

    const created = params.get('created');
    const expires = params.get('expires');
    const reason =
      this.timeRefusal(request, names, created, expires, check) ??
      (names.includes('digest') ? this.digests.checkDigest(requestHeader(request, 'digest'), body) : undefined);
    if (reason !== undefined) {
      return refusal(reason, keyId);
    }

    const lines: string[] = [];
    let targetIndex = -1;
    for (const name of names) {
      let value: string | undefined;
      if (name === '(request-target)') {
        targetIndex = lines.length;
        value = `${request.method.toLowerCase()} ${pathAndQuery(url)}`;
      } else if (name === '(created)') {
        value = created;
      } else if (name === '(expires)') {
        value = expires;
      } else if (name === 'host') {
        value = url.host;
      } else {
        value = requestHeader(request, name)?.trim();
      }
      if (value === undefined) {
        return refusal(`signed header ${name} is missing`, keyId);
      }
      lines.push(`${name}: ${value}`);
    }
    const messages = [ Buffer.from(lines.join('\n'), 'utf8') ];
    if (url.search !== '' && targetIndex >= 0) {
      lines[targetIndex] = `(request-target): ${request.method.toLowerCase()} ${url.pathname}`;
      messages.push(Buffer.from(lines.join('\n'), 'utf8'));
    }
    return {
      keyId,
      alg: algorithm === undefined ? undefined : ALGORITHMS[algorithm],
      messages,
      signature: Buffer.from(signatureText, 'base64'),
      ecdsaDer: true,
      scheme: 'cavage',
    };
  }

  private timeRefusal(
    request: VerifiableRequest,
    names: string[],
    created: string | undefined,
    expires: string | undefined,
    check: SignatureCheck,
  ): string | undefined {
    if (names.includes('date')) {
      const date = requestHeader(request, 'date');
      const time = date === undefined ? NaN : Date.parse(date);
      if (Number.isNaN(time)) {
        return date === undefined ? 'signed header date is missing' : 'invalid Date header';
      }
      const reason = check.timeRefusal('Date', time);
      if (reason !== undefined) {
        return reason;
      }
    }
    if (created !== undefined) {
      if (!/^\d{1,15}$/u.test(created)) {
        return 'invalid created parameter';
      }
      const reason = check.timeRefusal('created', Number(created) * 1000);
      if (reason !== undefined) {
        return reason;
      }
    }
    if (expires !== undefined) {
      if (!/^\d{1,15}(?:\.\d+)?$/u.test(expires)) {
        return 'invalid expires parameter';
      }
      return check.expiryRefusal(Number(expires) * 1000);
    }
    return undefined;
  }
}

/**
 * `keyId="…",algorithm="…",headers="…",signature="…"` (also unquoted numbers for created/expires).
 * Names are case-insensitive (returned lowercase); a repeated name or stray text is malformed.
 */
export function parseCavageParams(value: string): Map<string, string> | undefined {
  const params = new Map<string, string>();
  const pattern = /\s*([A-Za-z][A-Za-z0-9_-]*)\s*=\s*(?:"([^"\\]*)"|([0-9]+(?:\.[0-9]+)?))\s*(,|$)/uy;
  let pos = 0;
  while (pos < value.length) {
    pattern.lastIndex = pos;
    const match = pattern.exec(value);
    if (match === null) {
      return undefined;
    }
    const name = match[1].toLowerCase();
    if (params.has(name)) {
      return undefined;
    }
    params.set(name, match[2] ?? match[3]);
    pos = pattern.lastIndex;
    if (match[4] === ',' && pos >= value.length) {
      return undefined;
    }
  }
  return params.size === 0 ? undefined : params;
}
