import { createHash, KeyObject, verify } from 'node:crypto';
import type { JWK, JWTPayload } from 'jose';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';

/** A Solid-OIDC access token that CSS's verifier accepted (issuer, signature, WebID's issuer list). */
export interface VerifiedSolidToken {
  scheme: 'DPoP' | 'Bearer';
  webId: string;
  /** Expiry, in ms since the epoch. */
  expires: number;
  /** Thumbprint of the key the token is bound to (DPoP). */
  jkt?: string;
  /** The token's hash as a proof's `ath` names it, once computed. */
  ath?: string;
}

/** How old a DPoP proof may be, and how far ahead of this clock its `iat` may be. */
const PROOF_MAX_AGE_S = 60;
const CLOCK_TOLERANCE_S = 5;
/** Signature algorithms accepted for proofs: asymmetric only. */
const PROOF_ALGORITHMS = [ 'ES256', 'ES384', 'ES512', 'ES256K', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA' ];

/**
 * ECDSA proofs, the ones Solid clients sign (ES256), are verified here with node:crypto, synchronously,
 * by the curve each algorithm names: half the CPU of jose's jwtVerify (its checks, JSON and a trip to
 * the thread pool), with the same checks. Other algorithms go through jose.
 */
const NATIVE_ECDSA: Record<string, { digest: string; curve: string }> = {
  ES256: { digest: 'sha256', curve: 'prime256v1' },
  ES384: { digest: 'sha384', curve: 'secp384r1' },
  ES512: { digest: 'sha512', curve: 'secp521r1' },
};

interface ProofKey {
  key: KeyObject | Uint8Array;
  thumbprint: string;
  alg: string;
  /** Set when the signature is checked with node:crypto (NATIVE_ECDSA): the key as node:crypto takes it. */
  native?: { digest: string; key: KeyObject };
}

/**
 * Keeps the Solid-OIDC access tokens that were verified once (until they expire), and checks the DPoP
 * proof of each later request made with one. Verifying a token costs its signature, its issuer's keys
 * and the WebID's issuer list; a proof only its own signature (with the client's key, imported once)
 * and its claims: method, URL, age, a `jti` never seen in the proof's lifetime, and the access token
 * hash when the client sends one. Seen `jti`s are kept for as long as a proof is accepted, all of them
 * (a fixed-size cache would let a proof be replayed once traffic pushed it out); they are per process,
 * so a proof replayed to another node within its minute is not caught there, as with CSS's verifier.
 */
export class SolidTokenCache {
  private readonly tokens = new Map<string, VerifiedSolidToken>();
  private readonly proofKeys = new Map<string, ProofKey>();
  private readonly seenJtis = new Map<string, number>();
  private nextSweep = 0;

  /**
   * @param maxTokens - How many verified tokens are kept (oldest dropped first).
   * @param maxKeys - How many clients' proof keys are kept.
   */
  public constructor(private readonly maxTokens = 10_000, private readonly maxKeys = 10_000) {}

  /** The token as verified before, when it has not expired since and came with the same scheme. */
  public get(scheme: string, token: string): VerifiedSolidToken | undefined {
    const entry = this.tokens.get(token);
    if (!entry || entry.scheme.toLowerCase() !== scheme.toLowerCase()) {
      return undefined;
    }
    if (entry.expires <= Date.now()) {
      this.tokens.delete(token);
      return undefined;
    }
    return entry;
  }

  /**
   * Keeps a token CSS's verifier has just accepted for `webId`, and the `jti` of the proof it came with
   * (so that proof cannot be replayed through this cache).
   */
  public remember(scheme: 'DPoP' | 'Bearer', token: string, webId: string, proof?: string): void {
    let claims: { exp?: unknown; cnf?: { jkt?: unknown } };
    try {
      claims = decodeJwt(token) as typeof claims;
    } catch {
      return;
    }
    if (typeof claims.exp !== 'number') {
      return;
    }
    const jkt = typeof claims.cnf?.jkt === 'string' ? claims.cnf.jkt : undefined;
    if (scheme === 'DPoP' && !jkt) {
      return;
    }
    if (proof) {
      try {
        const { jti, iat } = decodeJwt(proof);
        if (typeof jti === 'string' && typeof iat === 'number') {
          this.recordJti(jti, iat);
        }
      } catch {
        // CSS's verifier accepted it: it decodes.
      }
    }
    if (this.tokens.size >= this.maxTokens) {
      this.tokens.delete(this.tokens.keys().next().value!);
    }
    this.tokens.set(token, { scheme, webId, expires: claims.exp * 1000, ...jkt ? { jkt } : {}});
  }

  /**
   * Checks the DPoP proof of a request made with a remembered DPoP-bound token; throws with the reason
   * when it is missing or wrong. `url` is the request's absolute URL (its query and fragment are not
   * compared).
   */
  public async checkProof(entry: VerifiedSolidToken, token: string, proof: string | undefined, method: string, url: string):
  Promise<void> {
    if (!proof) {
      throw new Error('A DPoP-bound token needs a DPoP proof');
    }
    const key = await this.proofKey(proof);
    if (key.thumbprint !== entry.jkt) {
      throw new Error('The DPoP proof is not signed with the key the token is bound to');
    }
    const payload = key.native ? await verifyNative(proof, key.native) : (await jwtVerify(proof, key.key, {
      typ: 'dpop+jwt', algorithms: [ key.alg ], maxTokenAge: `${PROOF_MAX_AGE_S}s`, clockTolerance: `${CLOCK_TOLERANCE_S}s`,
    })).payload;
    if (payload.htm !== method) {
      throw new Error(`The DPoP proof is for ${String(payload.htm)}, not ${method}`);
    }
    if (typeof payload.htu !== 'string' || payload.htu.replace(/[?#].*$/u, '') !== url.replace(/[?#].*$/u, '')) {
      throw new Error('The DPoP proof is for another URL');
    }
    if (typeof payload.ath === 'string') {
      entry.ath ??= createHash('sha256').update(token).digest('base64url');
      if (payload.ath !== entry.ath) {
        throw new Error('The DPoP proof is for another access token');
      }
    }
    if (typeof payload.jti !== 'string' || payload.jti === '' || this.seen(payload.jti)) {
      throw new Error('The DPoP proof has been used before');
    }
    this.recordJti(payload.jti, payload.iat!);
  }

  /**
   * The key a proof is signed with, from its protected header, which must be a dpop+jwt's with an
   * asymmetric algorithm and the public key. Kept by the header's own text: a client sends the same
   * header with every proof, so the header is checked and its key imported once.
   */
  private async proofKey(proof: string): Promise<ProofKey> {
    const encodedHeader = proof.slice(0, proof.indexOf('.'));
    let key = this.proofKeys.get(encodedHeader);
    if (!key) {
      const header = decodeProtectedHeader(proof);
      if (header.typ !== 'dpop+jwt' || typeof header.alg !== 'string' || !PROOF_ALGORITHMS.includes(header.alg) ||
        !header.jwk || typeof header.jwk !== 'object') {
        throw new Error('The DPoP proof must be a dpop+jwt signed with its embedded public key');
      }
      key = await importProofKey(header.jwk, header.alg, header.crit === undefined);
      if (this.proofKeys.size >= this.maxKeys) {
        this.proofKeys.delete(this.proofKeys.keys().next().value!);
      }
      this.proofKeys.set(encodedHeader, key);
    }
    return key;
  }

  private seen(jti: string): boolean {
    const until = this.seenJtis.get(jti);
    return until !== undefined && until > Date.now();
  }

  /** Remembers a `jti` for as long as its proof could be accepted; expired ones are swept now and then. */
  private recordJti(jti: string, iat: number): void {
    const now = Date.now();
    this.seenJtis.set(jti, (iat + PROOF_MAX_AGE_S + CLOCK_TOLERANCE_S) * 1000);
    if (now >= this.nextSweep) {
      this.nextSweep = now + 10_000;
      for (const [ seenJti, until ] of this.seenJtis) {
        if (until <= now) {
          this.seenJtis.delete(seenJti);
        }
      }
    }
  }
}

/** A proof's key; checked with node:crypto when its algorithm and curve allow (no `crit` header either: jose judges those). */
async function importProofKey(jwk: JWK, alg: string, plainHeader: boolean): Promise<ProofKey> {
  const key = await importJWK(jwk, alg) as KeyObject | Uint8Array;
  const thumbprint = await calculateJwkThumbprint(jwk, 'sha256');
  const native = NATIVE_ECDSA[alg];
  if (native && plainHeader && key instanceof KeyObject && key.type === 'public' && key.asymmetricKeyType === 'ec' &&
    key.asymmetricKeyDetails?.namedCurve === native.curve) {
    return { key, thumbprint, alg, native: { digest: native.digest, key }};
  }
  return { key, thumbprint, alg };
}

/** The proof's claims once its signature and times are checked, as jose's jwtVerify checks them with the options above. */
async function verifyNative(proof: string, native: { digest: string; key: KeyObject }): Promise<JWTPayload> {
  const [ , encodedPayload, signature, extra ] = proof.split('.');
  if (extra !== undefined || !encodedPayload || !signature) {
    throw new Error('signature verification failed');
  }
  // In libuv's thread pool (node:crypto's callback form): the check costs about as much as the rest of
  // a GET, and the main thread is what a loaded server runs out of.
  const valid = await new Promise<boolean>((resolve, reject): void => {
    verify(native.digest, Buffer.from(proof.slice(0, proof.lastIndexOf('.'))), { key: native.key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'), (error, result): void => (error ? reject(error) : resolve(result)));
  });
  if (!valid) {
    throw new Error('signature verification failed');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(encodedPayload, 'base64url').toString('utf8'));
  } catch {
    throw new Error('JWT Claims Set must be a top-level JSON object');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new Error('JWT Claims Set must be a top-level JSON object');
  }
  checkTimes(payload as JWTPayload);
  return payload as JWTPayload;
}

/** jose's time checks: `iat` required (maxTokenAge), at most PROOF_MAX_AGE_S old, not ahead; `nbf`, `exp` when present. */
function checkTimes({ iat, nbf, exp }: JWTPayload): void {
  const now = Math.floor(Date.now() / 1000);
  if (typeof iat !== 'number') {
    throw new Error('"iat" claim must be a number');
  }
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now + CLOCK_TOLERANCE_S)) {
    throw new Error('"nbf" claim timestamp check failed');
  }
  if (exp !== undefined && (typeof exp !== 'number' || exp <= now - CLOCK_TOLERANCE_S)) {
    throw new Error('"exp" claim timestamp check failed');
  }
  const age = now - iat;
  if (age - CLOCK_TOLERANCE_S > PROOF_MAX_AGE_S) {
    throw new Error('"iat" claim timestamp check failed (too far in the past)');
  }
  if (age < -CLOCK_TOLERANCE_S) {
    throw new Error('"iat" claim timestamp check failed (it should be in the past)');
  }
}
