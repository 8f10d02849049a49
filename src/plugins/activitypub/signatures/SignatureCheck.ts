import type { KeyObject } from 'node:crypto';
import type { KeyResolver, ResolvedKey, VerifiableRequest, VerifyOptions, VerifyResult } from './HttpSignatureVerifier';
import {
  algorithmForKey,
  keyFitsAlgorithm,
  verifyBytes,
  type Rfc9421Algorithm,
  type SignatureScheme,
} from './SignatureCommon';
import { messageOf } from '../../../util/Errors';

export type VerifyFailure = Extract<VerifyResult, { ok: false }>;

/** What a scheme extracted from a request: the signed bytes, the signature and who claims it. */
export interface SignatureCandidate {
  keyId: string;
  /** Undefined: infer from the key. */
  alg?: Rfc9421Algorithm;
  /** The signed data; a second one is tried if the first fails (cavage without the query string). */
  messages: Buffer[];
  signature: Buffer;
  /** ECDSA signatures in ASN.1 DER (cavage) rather than RFC 9421's raw r||s. */
  ecdsaDer: boolean;
  scheme: SignatureScheme;
}

const DEFAULT_MAX_AGE_MS = 12 * 3_600_000;
const DEFAULT_SKEW_MS = 3_600_000;

/**
 * What every signature scheme checks the same way, for one request: the time window a signature
 * must fall in, the key lookup (with one refresh for rotated keys), whether the key fits the
 * algorithm, and the signature itself.
 */
export class SignatureCheck {
  private readonly now: number;
  private readonly maxAgeMs: number;
  private readonly skewMs: number;
  private readonly refreshKeyOnFailure: boolean;

  public constructor(private readonly resolveKey: KeyResolver, options: VerifyOptions = {}) {
    this.now = options.now === undefined ? Date.now() : Number(options.now);
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
    this.skewMs = options.skewMs ?? DEFAULT_SKEW_MS;
    this.refreshKeyOnFailure = options.refreshKeyOnFailure ?? true;
  }

  /** Why a signature made at `timeMs` (`what`: Date, created) is refused, or undefined. */
  public timeRefusal(what: string, timeMs: number): string | undefined {
    if (timeMs < this.now - this.maxAgeMs) {
      return `signature expired (${what} too old)`;
    }
    if (timeMs > this.now + this.skewMs) {
      return `${what} is in the future`;
    }
    return undefined;
  }

  /** Why a signature that expires at `expiresMs` is refused, or undefined. */
  public expiryRefusal(expiresMs: number): string | undefined {
    return expiresMs < this.now ? 'signature expired (expires)' : undefined;
  }

  /** Looks the key up and checks the signature, asking once for a fresh key when it fails. */
  public async verify(candidate: SignatureCandidate): Promise<VerifyResult> {
    const { keyId } = candidate;
    const first = await this.lookUp(keyId, false);
    if ('ok' in first) {
      return first;
    }
    const outcome = this.checkWith(candidate, first.publicKey);
    if (outcome === true) {
      return { ok: true, keyId, owner: first.owner, scheme: candidate.scheme };
    }
    if (this.refreshKeyOnFailure) {
      const second = await this.lookUp(keyId, true);
      if (!('ok' in second) && !second.publicKey.equals(first.publicKey)) {
        const retried = this.checkWith(candidate, second.publicKey);
        if (retried === true) {
          return { ok: true, keyId, owner: second.owner, scheme: candidate.scheme };
        }
        return refusal(retried, keyId);
      }
    }
    return refusal(outcome, keyId);
  }

  private async lookUp(keyId: string, refresh: boolean): Promise<ResolvedKey | VerifyFailure> {
    try {
      const key = await (refresh ? this.resolveKey(keyId, { refresh: true }) : this.resolveKey(keyId));
      return key ?? refusal('unknown key', keyId);
    } catch (error: unknown) {
      return refusal(`key not available: ${messageOf(error)}`, keyId);
    }
  }

  /** True, or why not. */
  private checkWith(candidate: SignatureCandidate, publicKey: KeyObject): true | string {
    if (publicKey.type !== 'public') {
      return 'the resolved key is not a public key';
    }
    const alg = candidate.alg ?? algorithmForKey(publicKey);
    if (alg === undefined || !keyFitsAlgorithm(publicKey, alg)) {
      return `the key does not fit algorithm ${alg ?? publicKey.asymmetricKeyType ?? 'unknown'}`;
    }
    for (const message of candidate.messages) {
      if (verifyBytes(alg, message, publicKey, candidate.signature, candidate.ecdsaDer)) {
        return true;
      }
    }
    return 'signature does not verify';
  }
}

/** A refusal, naming the key when one was claimed. */
export function refusal(reason: string, keyId?: string): VerifyFailure {
  return keyId === undefined ? { ok: false, reason } : { ok: false, reason, keyId };
}

/** A request header by lowercase name, repeated fields joined as HTTP joins them. */
export function requestHeader(request: VerifiableRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
