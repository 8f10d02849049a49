import type { KeyObject } from 'node:crypto';
import { CavageSignatureVerifier } from './CavageSignatureVerifier';
import { DigestVerifier } from './DigestVerifier';
import { Rfc9421SignatureVerifier } from './Rfc9421SignatureVerifier';
import { refusal, requestHeader, SignatureCheck } from './SignatureCheck';
import type { SignatureScheme } from './SignatureCommon';
import { messageOf } from '../../../util/Errors';

// The shapes callers exchange with the verifier are declared here, where callers look for them;
// the scheme verifiers and the shared check import them as types only.
export interface VerifiableRequest {
  method: string;
  /**
   * The absolute URL the sender addressed: the server's public base URL + path + query. Its host
   * is what the signed `host` / `@authority` must be, whatever Host header a proxy passed on.
   * A path alone is resolved against `https://<Host header>`.
   */
  url: string;
  /** Lowercase names; repeated fields joined with ", " (node's `IncomingMessage.headers` is fine). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The raw body exactly as received (absent = empty). */
  body?: Buffer | string;
}

export interface ResolvedKey {
  publicKey: KeyObject;
  /** The actor the key belongs to; the caller checks it against the activity's actor. */
  owner: string;
}

/**
 * Finds the public key for a keyId. `refresh: true` asks for a refetch (sent once when a signature
 * does not verify with the cached key, for key rotation). It may throw or return undefined.
 */
export type KeyResolver = (keyId: string, options?: { refresh?: boolean }) => Promise<ResolvedKey | undefined>;

export interface VerifyOptions {
  /** How old a signature may be (Date / created). Default 12 h, as Mastodon. */
  maxAgeMs?: number;
  /** How far in the future a signature's time may be. Default 1 h, as Mastodon. */
  skewMs?: number;
  /** The current time (ms since the epoch, or a Date); now by default. */
  now?: number | Date;
  /** Ask the resolver for a fresh key once when the signature fails with the first one. Default true. */
  refreshKeyOnFailure?: boolean;
}

export type VerifyResult =
  | { ok: true; keyId: string; owner: string; scheme: SignatureScheme }
  | { ok: false; reason: string; keyId?: string };

/**
 * Verifies signed incoming requests: RFC 9421 (`Signature-Input` + `Signature`) when the request
 * carries a `Signature-Input`, draft-cavage-http-signatures-12 (`Signature` alone) otherwise, both
 * with Mastodon's rules (see `Rfc9421SignatureVerifier` and `CavageSignatureVerifier`). Defaults:
 * signatures up to 12 h old and 1 h ahead, one key refresh when a signature fails.
 *
 * Never throws: malformed input gives `{ ok: false, reason }`.
 */
export class HttpSignatureVerifier {
  private readonly cavage: CavageSignatureVerifier;
  private readonly rfc9421: Rfc9421SignatureVerifier;

  public constructor() {
    const digests = new DigestVerifier();
    this.cavage = new CavageSignatureVerifier(digests);
    this.rfc9421 = new Rfc9421SignatureVerifier(digests);
  }

  public async verify(
    request: VerifiableRequest,
    resolveKey: KeyResolver,
    options: VerifyOptions = {},
  ): Promise<VerifyResult> {
    try {
      const url = requestUrl(request);
      if (url === undefined) {
        return refusal('invalid request URL');
      }
      const check = new SignatureCheck(resolveKey, options);
      if (requestHeader(request, 'signature-input') !== undefined) {
        return await this.rfc9421.verify(request, url, check);
      }
      if (requestHeader(request, 'signature') !== undefined) {
        return await this.cavage.verify(request, url, check);
      }
      return refusal('no signature');
    } catch (error: unknown) {
      return refusal(`verification error: ${messageOf(error)}`);
    }
  }
}

function requestUrl(request: VerifiableRequest): URL | undefined {
  try {
    return new URL(request.url);
  } catch {
    const host = requestHeader(request, 'host');
    if (host === undefined) {
      return undefined;
    }
    try {
      return new URL(request.url, `https://${host}`);
    } catch {
      return undefined;
    }
  }
}
