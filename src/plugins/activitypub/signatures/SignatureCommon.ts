import {
  constants,
  createHash,
  sign as cryptoSign,
  verify as cryptoVerify,
  type KeyObject,
  type SignKeyObjectInput,
} from 'node:crypto';

/** Which HTTP signature standard a request is signed with. */
export type SignatureScheme = 'cavage' | 'rfc9421';

/** A private key with the URL other servers fetch its public half from. */
export interface SigningKey {
  keyId: string;
  /** Create it once per key (`crypto.createPrivateKey`) and reuse it: parsing PEM per call is slow. */
  privateKey: KeyObject;
}

/** RFC 9421 algorithm names (IANA "HTTP Signature Algorithms") supported here. */
export type Rfc9421Algorithm =
  | 'rsa-v1_5-sha256'
  | 'rsa-pss-sha512'
  | 'ecdsa-p256-sha256'
  | 'ecdsa-p384-sha384'
  | 'ed25519';

export const RFC9421_ALGORITHMS: ReadonlySet<string> = new Set<Rfc9421Algorithm>([
  'rsa-v1_5-sha256',
  'rsa-pss-sha512',
  'ecdsa-p256-sha256',
  'ecdsa-p384-sha384',
  'ed25519',
]);

const CURVES: Record<string, Rfc9421Algorithm> = {
  prime256v1: 'ecdsa-p256-sha256',
  secp384r1: 'ecdsa-p384-sha384',
};

/**
 * The algorithm a key implies when the signature does not name one (cavage `hs2019` or no
 * `algorithm`, RFC 9421 without `alg`): RSA keys sign RSASSA-PKCS1-v1_5 with SHA-256, as the
 * fediverse does, even under `hs2019`.
 */
export function algorithmForKey(key: KeyObject): Rfc9421Algorithm | undefined {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return 'rsa-v1_5-sha256';
    case 'rsa-pss':
      return 'rsa-pss-sha512';
    case 'ed25519':
      return 'ed25519';
    case 'ec':
      return CURVES[key.asymmetricKeyDetails?.namedCurve ?? ''];
    default:
      return undefined;
  }
}

/** Whether `key` can produce or check signatures of `alg` (a key's type pins its algorithm). */
export function keyFitsAlgorithm(key: KeyObject, alg: Rfc9421Algorithm): boolean {
  switch (alg) {
    case 'rsa-v1_5-sha256':
      return key.asymmetricKeyType === 'rsa';
    case 'rsa-pss-sha512':
      return key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss';
    case 'ed25519':
      return key.asymmetricKeyType === 'ed25519';
    case 'ecdsa-p256-sha256':
    case 'ecdsa-p384-sha384':
      return key.asymmetricKeyType === 'ec' && CURVES[key.asymmetricKeyDetails?.namedCurve ?? ''] === alg;
  }
}

/** What node:crypto's sign() takes for an algorithm besides the key: the digest, and padding or encoding. */
export interface SignParameters {
  digest: string | null;
  options?: Omit<SignKeyObjectInput, 'key'>;
}

export function signParameters(alg: Rfc9421Algorithm): SignParameters {
  switch (alg) {
    case 'rsa-v1_5-sha256':
      return { digest: 'sha256' };
    case 'rsa-pss-sha512':
      return { digest: 'sha512', options: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 } };
    case 'ecdsa-p256-sha256':
      return { digest: 'sha256', options: { dsaEncoding: 'ieee-p1363' } };
    case 'ecdsa-p384-sha384':
      return { digest: 'sha384', options: { dsaEncoding: 'ieee-p1363' } };
    case 'ed25519':
      return { digest: null };
  }
}

function signInput(privateKey: KeyObject, options: SignParameters['options']): KeyObject | SignKeyObjectInput {
  return options ? { ...options, key: privateKey } : privateKey;
}

export function signBytes(alg: Rfc9421Algorithm, data: Buffer, privateKey: KeyObject): Buffer {
  const { digest, options } = signParameters(alg);
  return cryptoSign(digest, data, signInput(privateKey, options));
}

/**
 * signBytes on libuv's thread pool: an RSA-2048 signature costs ~0.3 ms of CPU, which a fan-out to
 * 1,000 inboxes would otherwise spend on the main thread, in series with its HTTP work.
 */
export async function signBytesAsync(alg: Rfc9421Algorithm, data: Buffer, privateKey: KeyObject): Promise<Buffer> {
  const { digest, options } = signParameters(alg);
  return new Promise<Buffer>((resolve, reject): void => {
    cryptoSign(digest, data, signInput(privateKey, options), (error: Error | null, signature: Buffer): void => {
      if (error) {
        reject(error);
      } else {
        resolve(signature);
      }
    });
  });
}

/**
 * Checks a signature; false (never an exception) for a wrong key, a key of another type than the
 * algorithm, a malformed signature, etc.
 * `ecdsaDer` selects ASN.1 DER ECDSA signatures (cavage) instead of RFC 9421's raw r||s.
 */
export function verifyBytes(
  alg: Rfc9421Algorithm,
  data: Buffer,
  publicKey: KeyObject,
  signature: Buffer,
  ecdsaDer = false,
): boolean {
  // node:crypto takes a null digest with an RSA key as SHA-256, so an "ed25519" signature could
  // otherwise pass with an RSA key: the key's type must match the algorithm first.
  if (!keyFitsAlgorithm(publicKey, alg)) {
    return false;
  }
  const dsaEncoding = ecdsaDer ? 'der' : 'ieee-p1363';
  try {
    switch (alg) {
      case 'rsa-v1_5-sha256':
        return cryptoVerify('sha256', data, publicKey, signature);
      case 'rsa-pss-sha512':
        return cryptoVerify(
          'sha512',
          data,
          { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 },
          signature,
        );
      case 'ecdsa-p256-sha256':
        return cryptoVerify('sha256', data, { key: publicKey, dsaEncoding }, signature);
      case 'ecdsa-p384-sha384':
        return cryptoVerify('sha384', data, { key: publicKey, dsaEncoding }, signature);
      case 'ed25519':
        return cryptoVerify(null, data, publicKey, signature);
    }
  } catch {
    return false;
  }
}

export function sha256(body: Buffer | string | undefined): Buffer {
  return createHash('sha256').update(body ?? '').digest();
}

export function sha512(body: Buffer | string | undefined): Buffer {
  return createHash('sha512').update(body ?? '').digest();
}

/** Reads a header from a record whose keys may have any case. */
export function findHeader(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  const direct = headers[name];
  if (direct !== undefined) {
    return direct;
  }
  const lower = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === lower) {
      return headers[key];
    }
  }
  return undefined;
}

/** `path?query` of a URL, as in `(request-target)` and RFC 9421 `@request-target`. */
export function pathAndQuery(url: URL): string {
  return `${url.pathname || '/'}${url.search}`;
}

/** The target URI as signed and verified: the absolute URL without its fragment. */
export function targetUri(url: URL): string {
  if (!url.hash) {
    return url.href;
  }
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

/**
 * RFC 9421 §2.2 derived components for a request. Undefined for one that is not supported
 * (`@query-param` needs a parameter, `@status` is for responses).
 */
export function derivedComponent(name: string, method: string, url: URL): string | undefined {
  switch (name) {
    case '@method':
      return method;
    case '@target-uri':
      return targetUri(url);
    case '@authority':
      return url.host;
    case '@scheme':
      return url.protocol.slice(0, -1);
    case '@request-target':
      return pathAndQuery(url);
    case '@path':
      return url.pathname || '/';
    case '@query':
      return url.search || '?';
    default:
      return undefined;
  }
}
