import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { JWK, KeyLike } from 'jose';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT } from 'jose';
import { unauthorized } from '../../util/HttpErrors';
import type { AccountStore } from './AccountStore';
import { tokenStillValid } from './CredentialChecks';
import { createFileOnce } from '../../util/DurableFiles';
import { errnoOf } from '../../util/Errors';

const ALGORITHM = 'ES256';

export interface TokenClaims {
  webId: string;
  username: string;
  /** When the token was issued (ms), as verify read it. */
  issuedMs?: number;
}

interface SigningKeys {
  privateKey: KeyLike;
  publicKey: KeyLike;
  kid: string;
}

/**
 * Fedpod's access tokens: JWTs signed with an ES256 key that is generated at first start and kept in
 * `<dataDir>/keys/jwt-es256.json` (mode 0600), so tokens survive restarts and every node sharing the
 * data directory accepts them. Claims: webId, sub (the WebID), preferred_username, iss (the base URL),
 * iat, exp. Verification pins the algorithm and the issuer: `alg: none`, other algorithms, other
 * issuers, forged signatures and expired tokens are all refused.
 */
export class TokenService {
  private keys?: Promise<SigningKeys>;
  private readonly issuer: string;

  /**
   * @param baseUrl - Public base URL, the tokens' issuer.
   * @param dataDir - Data directory holding the signing key.
   * @param lifetimeSeconds - Token lifetime.
   * @param accounts - The accounts, where the setup has them: a token of an account that no longer
   *   exists, or issued before its password changed, is refused.
   */
  public constructor(
    baseUrl: string,
    private readonly dataDir: string,
    private readonly lifetimeSeconds = 604_800,
    private readonly accounts?: AccountStore,
  ) {
    this.issuer = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  public async issue(claims: TokenClaims): Promise<string> {
    const { privateKey, kid } = await this.signingKeys();
    // The issue time in milliseconds: a token issued in the same second as a password change, just
    // after it, must stay valid, one issued just before must not.
    return new SignJWT({ webId: claims.webId, preferred_username: claims.username, iat_ms: Date.now() })
      .setProtectedHeader({ alg: ALGORITHM, kid, typ: 'JWT' })
      .setSubject(claims.webId)
      .setIssuer(this.issuer)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.lifetimeSeconds)
      .sign(privateKey);
  }

  /** The claims of a valid token; a 401 FedpodHttpError otherwise. */
  public async verify(token: string): Promise<TokenClaims> {
    const { publicKey } = await this.signingKeys();
    try {
      const { payload } = await jwtVerify(token, publicKey, { issuer: this.issuer, algorithms: [ ALGORITHM ]});
      if (typeof payload.webId !== 'string' || payload.sub !== payload.webId ||
        typeof payload.preferred_username !== 'string' || typeof payload.exp !== 'number') {
        throw new Error('missing claims');
      }
      const claims = { webId: payload.webId, username: payload.preferred_username,
        issuedMs: typeof payload.iat_ms === 'number' ? payload.iat_ms : (payload.iat ?? 0) * 1000 };
      if (!await this.current(claims)) {
        throw Object.assign(new Error('revoked'), { code: 'REVOKED' });
      }
      return claims;
    } catch (error: unknown) {
      if ((error as { code?: string }).code === 'REVOKED') {
        throw unauthorized('The token was revoked (a password change, or the account is gone): log in again.', 'token_revoked');
      }
      const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw unauthorized(expired ? 'The token has expired: log in again.' : 'The token is not valid.',
        expired ? 'token_expired' : 'invalid_token');
    }
  }

  /**
   * Whether a verified token's claims still speak for their user (the account exists and its
   * password has not changed since the token was issued): for tokens verified once and remembered.
   */
  public async current(claims: TokenClaims): Promise<boolean> {
    return !this.accounts || tokenStillValid(await this.accounts.findByUsername(claims.username), claims.issuedMs ?? 0, claims.webId);
  }

  /** True when the string looks like one of this server's tokens (a JWT with its issuer), without verifying it. */
  public isOwnToken(token: string): boolean {
    const [ , payload ] = token.split('.');
    if (!payload) {
      return false;
    }
    try {
      return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: unknown }).iss === this.issuer;
    } catch {
      return false;
    }
  }

  private async signingKeys(): Promise<SigningKeys> {
    this.keys ??= this.loadOrCreate().catch((error: unknown): never => {
      this.keys = undefined;
      throw error;
    });
    return this.keys;
  }

  private async loadOrCreate(): Promise<SigningKeys> {
    const file = path.join(this.dataDir, 'keys', 'jwt-es256.json');
    try {
      return await this.load(file);
    } catch (error: unknown) {
      if (errnoOf(error) !== 'ENOENT') {
        throw error;
      }
    }
    const { privateKey } = await generateKeyPair(ALGORITHM, { extractable: true });
    const jwk = { ...await exportJWK(privateKey), alg: ALGORITHM, kid: randomUUID() };
    // Another process may make the key at the same time: the first one made is the one.
    await createFileOnce(file, JSON.stringify(jwk));
    return this.load(file);
  }

  private async load(file: string): Promise<SigningKeys> {
    const jwk = JSON.parse(await fs.readFile(file, 'utf8')) as JWK & { kid: string };
    const publicJwk: JWK = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
    return {
      privateKey: await importJWK(jwk, ALGORITHM) as KeyLike,
      publicKey: await importJWK(publicJwk, ALGORITHM) as KeyLike,
      kid: jwk.kid,
    };
  }
}
