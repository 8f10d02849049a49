import { serializeDictionary, serializeInnerList, serializeItem, type InnerList, type Item } from 'structured-headers';
import {
  algorithmForKey,
  findHeader,
  pathAndQuery,
  sha256,
  signBytes,
  signBytesAsync,
  targetUri,
  type Rfc9421Algorithm,
  type SignatureScheme,
  type SigningKey,
} from './SignatureCommon';
import type { ByteSigner } from './ByteSigner';

export interface SignableRequest {
  method: string;
  /** Absolute URL the request goes to. */
  url: string;
  /** The headers the request will carry (any case). A `Host` header, if given, must be what is sent. */
  headers: Record<string, string>;
  body?: Buffer | string;
}

export interface SignOptions {
  /** The signing time (ms since the epoch, or a Date); now by default. For tests. */
  now?: number | Date;
}

const CAVAGE_ALGORITHM: Partial<Record<Rfc9421Algorithm, string>> = {
  'rsa-v1_5-sha256': 'rsa-sha256',
  ed25519: 'hs2019',
};

/** What is signed, and how the signature becomes headers. */
interface PreparedSignature {
  alg: Rfc9421Algorithm;
  /** The signature base (cavage: the signing string). */
  text: string;
  /** The headers to add, given the signature's bytes. */
  headers: (signature: Buffer) => Record<string, string>;
}

/**
 * Signs outgoing requests, draft-cavage-http-signatures-12 as Mastodon expects it or RFC 9421.
 * `sign` returns only the headers to add; it does not change the request.
 *
 * - cavage: `Date` (when the request has none), `Digest: SHA-256=…` (POST/PUT/PATCH or any body)
 *   and `Signature` over `(request-target) host date [digest]`. `(request-target)` includes the
 *   query string, as the draft says. RSA keys sign `rsa-sha256`; Ed25519 keys `hs2019`.
 * - rfc9421: `Content-Digest: sha-256=:…:` (with a body), `Signature-Input` covering
 *   `"@method" "@target-uri"` (+ `"content-digest"` with a body) with `created`, `keyid` and `alg`,
 *   and `Signature: sig1=:…:`.
 *
 * Costs one private-key operation per call (RSA-2048: ~0.35 ms; signAsync does it off the calling
 * thread); the key must be a KeyObject.
 */
export class HttpSigner {
  /**
   * @param byteSigner - Where signAsync's private-key operations run (default: libuv's thread pool).
   */
  public constructor(private readonly byteSigner: ByteSigner = { sign: signBytesAsync }) {}

  public sign(
    request: SignableRequest,
    key: SigningKey,
    scheme: SignatureScheme = 'cavage',
    options: SignOptions = {},
  ): Record<string, string> {
    const prepared = this.prepare(request, key, scheme, options);
    return prepared.headers(signBytes(prepared.alg, Buffer.from(prepared.text, 'utf8'), key.privateKey));
  }

  /** As sign(), with the private-key operation off the calling thread (the byteSigner's, or libuv's pool). */
  public async signAsync(
    request: SignableRequest,
    key: SigningKey,
    scheme: SignatureScheme = 'cavage',
    options: SignOptions = {},
  ): Promise<Record<string, string>> {
    const prepared = this.prepare(request, key, scheme, options);
    return prepared.headers(await this.byteSigner.sign(prepared.alg, Buffer.from(prepared.text, 'utf8'), key.privateKey));
  }

  private prepare(request: SignableRequest, key: SigningKey, scheme: SignatureScheme, options: SignOptions): PreparedSignature {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const now = options.now === undefined ? Date.now() : Number(options.now);
    const alg = algorithmForKey(key.privateKey);
    if (key.privateKey.type !== 'private' || alg === undefined) {
      throw new TypeError('HttpSigner needs an asymmetric private KeyObject (RSA, EC P-256/P-384 or Ed25519)');
    }
    return scheme === 'rfc9421'
      ? this.prepareRfc9421(method, url, request.body, key, alg, now)
      : this.prepareCavage(method, url, request, key, alg, now);
  }

  private prepareCavage(
    method: string,
    url: URL,
    request: SignableRequest,
    key: SigningKey,
    alg: Rfc9421Algorithm,
    now: number,
  ): PreparedSignature {
    const algorithm = CAVAGE_ALGORITHM[alg];
    if (algorithm === undefined) {
      throw new TypeError(`No draft-cavage signatures with ${alg} keys here; use RSA or Ed25519`);
    }
    if (/["\\]/u.test(key.keyId)) {
      throw new TypeError('A keyId for a cavage signature cannot contain quotes or backslashes');
    }
    const added: Record<string, string> = {};
    const host = findHeader(request.headers, 'host') ?? url.host;
    let date = findHeader(request.headers, 'date');
    if (date === undefined) {
      date = new Date(now).toUTCString();
      added.Date = date;
    }
    let names = '(request-target) host date';
    let text = `(request-target): ${method.toLowerCase()} ${pathAndQuery(url)}\nhost: ${host.trim()}\ndate: ${date.trim()}`;
    if (request.body !== undefined || method === 'POST' || method === 'PUT' || method === 'PATCH') {
      const digest = `SHA-256=${sha256(request.body).toString('base64')}`;
      added.Digest = digest;
      names += ' digest';
      text += `\ndigest: ${digest}`;
    }
    return { alg, text, headers: (signature: Buffer): Record<string, string> => ({ ...added,
      Signature: `keyId="${key.keyId}",algorithm="${algorithm}",headers="${names}",signature="${signature.toString('base64')}"` }) };
  }

  private prepareRfc9421(
    method: string,
    url: URL,
    body: Buffer | string | undefined,
    key: SigningKey,
    alg: Rfc9421Algorithm,
    now: number,
  ): PreparedSignature {
    const added: Record<string, string> = {};
    const lines: [string, string][] = [ [ '@method', method ], [ '@target-uri', targetUri(url) ] ];
    if (body !== undefined) {
      // Node's Buffer may sit on a SharedArrayBuffer, which a byte sequence's type excludes: copy it.
      const digest = serializeDictionary({ 'sha-256': new Uint8Array(sha256(body)) });
      added['Content-Digest'] = digest;
      lines.push([ 'content-digest', digest ]);
    }
    const components = lines.map(([ name ]): Item => [ name, new Map() ]);
    const signatureParams: InnerList = [ components, new Map<string, string | number>([
      [ 'created', Math.floor(now / 1000) ],
      [ 'keyid', key.keyId ],
      [ 'alg', alg ],
    ]) ];
    const params = serializeInnerList(signatureParams);
    const base = [
      ...lines.map(([ name, value ]) => `${serializeItem(name)}: ${value}`),
      `"@signature-params": ${params}`,
    ].join('\n');
    return { alg, text: base, headers: (signature: Buffer): Record<string, string> => ({ ...added,
      'Signature-Input': serializeDictionary({ sig1: signatureParams }),
      Signature: serializeDictionary({ sig1: new Uint8Array(signature) }) }) };
  }
}
