/**
 * Hostile credentials: draft-cavage HTTP signatures made with node:crypto (right or deliberately
 * wrong), and JWTs in every wrong shape (made with jose, some with the server's own signing key,
 * read from its data dir, to stand for tokens of unknown or deleted users).
 */
import { createHash, createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateKeyPair, importJWK, type JWK, type KeyLike, SignJWT } from 'jose';

export const throwawayRsaKey: KeyObject = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

export interface CavageOptions {
  /** Lowercase request method. */
  method: string;
  path: string;
  host: string;
  body: string;
  keyId: string;
  date?: string;
  /** Digest header value; default: the right SHA-256 of the body. */
  digest?: string;
  /** Signed header list; default `(request-target) host date digest`. */
  headers?: string;
  algorithm?: string;
  key?: KeyObject;
  /** Replace the computed signature. */
  signature?: string;
  /** Sign for this request target instead of `path` (a signature made for another request). */
  signedPath?: string;
  /** Sign over this body's digest while sending another (captured and replayed with a new body). */
  signedBody?: string;
}

export function sha256Digest(body: string): string {
  return `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
}

/** Headers of a draft-cavage signed POST. */
export function cavageHeaders(options: CavageOptions): Record<string, string> {
  const date = options.date ?? new Date().toUTCString();
  const digest = options.digest ?? sha256Digest(options.signedBody ?? options.body);
  const names = (options.headers ?? '(request-target) host date digest').split(' ');
  const values: Record<string, string> = {
    '(request-target)': `${options.method} ${options.signedPath ?? options.path}`,
    host: options.host,
    date,
    digest: options.signedBody === undefined ? digest : sha256Digest(options.signedBody),
  };
  const signed = names.map((name) => `${name}: ${values[name] ?? ''}`).join('\n');
  const signature = options.signature ?? createSign('sha256').update(signed).sign(options.key ?? throwawayRsaKey, 'base64');
  return {
    'Content-Type': 'application/activity+json',
    Date: date,
    Digest: options.signedBody === undefined ? digest : sha256Digest(options.body),
    Signature: `keyId="${options.keyId}",algorithm="${options.algorithm ?? 'rsa-sha256'}",headers="${names.join(' ')}",signature="${signature}"`,
  };
}

function b64url(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

export interface HostileTokens {
  /** [name, Authorization header value] */
  values: [string, string][];
  /** A valid-looking token of a user that has no account, signed with the server's real key. */
  ghost: string;
  /** `ghost`'s username. */
  ghostName: string;
}

/**
 * @param dataDir - The server's data dir (its `keys/jwt-es256.json` signs the ghost, expired and
 *   wrong-issuer tokens: only the server holds that key, so these stand for leaked or stale tokens).
 */
export async function hostileTokens(baseUrl: string, dataDir: string, realToken: string): Promise<HostileTokens> {
  const jwk = JSON.parse(fs.readFileSync(path.join(dataDir, 'keys', 'jwt-es256.json'), 'utf8')) as JWK & { kid: string };
  const serverKey = await importJWK(jwk, 'ES256') as KeyLike;
  const other = (await generateKeyPair('ES256')).privateKey;
  const now = Math.floor(Date.now() / 1000);
  const ghostName = 'ghost';
  const ghostWebId = `${baseUrl}actors/${ghostName}`;
  const claims = (webId: string, username: string): Record<string, unknown> => ({ webId, preferred_username: username });
  const sign = (payload: Record<string, unknown>, key: KeyLike, options: { iss?: string; exp?: number; sub?: string } = {}): Promise<string> =>
    new SignJWT(payload)
      .setProtectedHeader({ alg: 'ES256', kid: jwk.kid, typ: 'JWT' })
      .setSubject(options.sub ?? payload.webId as string)
      .setIssuer(options.iss ?? baseUrl)
      .setIssuedAt(now - 10)
      .setExpirationTime(options.exp ?? now + 3600)
      .sign(key);
  const alice = JSON.parse(Buffer.from(realToken.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
  const aliceClaims = claims(alice.webId as string, alice.preferred_username as string);
  const [ realHeader, realPayload, realSignature ] = realToken.split('.');
  const publicJwk = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
  const { createHmac } = await import('node:crypto');
  const hs256 = (secret: string | Buffer): string => {
    const head = b64url({ alg: 'HS256', typ: 'JWT' });
    const body = b64url({ ...aliceClaims, sub: alice.webId, iss: baseUrl, iat: now, exp: now + 3600 });
    return `${head}.${body}.${createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url')}`;
  };
  const ghost = await sign(claims(ghostWebId, ghostName), serverKey);
  const values: [string, string][] = [
    [ 'empty Bearer', 'Bearer ' ],
    [ 'Bearer without token', 'Bearer' ],
    [ 'Basic credentials', `Basic ${Buffer.from('alice:password').toString('base64')}` ],
    [ 'garbage token', 'Bearer abc.def.ghi' ],
    [ 'garbage with spaces', 'Bearer this is not a token' ],
    [ 'two tokens', `Bearer ${realToken}, Bearer ${realToken}` ],
    [ 'token with a quote', 'Bearer ab"c' ],
    [ 'only dots', 'Bearer ..' ],
    [ 'alg none', `Bearer ${b64url({ alg: 'none', typ: 'JWT' })}.${realPayload}.` ],
    [ 'alg None, signature kept', `Bearer ${b64url({ alg: 'None' })}.${realPayload}.${realSignature}` ],
    [ 'HS256 keyed with the public JWK', `Bearer ${hs256(JSON.stringify(publicJwk))}` ],
    [ 'HS256 keyed with the public x coordinate', `Bearer ${hs256(Buffer.from(jwk.x!, 'base64url'))}` ],
    [ 'expired (real key)', `Bearer ${await sign(aliceClaims, serverKey, { exp: now - 60 })}` ],
    [ 'wrong issuer (real key)', `Bearer ${await sign(aliceClaims, serverKey, { iss: 'https://evil.example/' })}` ],
    [ 'issuer without final slash (real key)', `Bearer ${await sign(aliceClaims, serverKey, { iss: baseUrl.slice(0, -1) })}` ],
    [ 'wrong key', `Bearer ${await sign(aliceClaims, other)}` ],
    [ 'subject differs from webId (real key)', `Bearer ${await sign(aliceClaims, serverKey, { sub: ghostWebId })}` ],
    [ 'no claims (real key)', `Bearer ${await sign({}, serverKey, { sub: 'x' })}` ],
    [ 'payload swapped, signature kept', `Bearer ${realHeader}.${b64url({ ...alice, preferred_username: 'mallory' })}.${realSignature}` ],
    [ 'signature truncated', `Bearer ${realToken.slice(0, -10)}` ],
    [ 'huge token', `Bearer ${'A'.repeat(3000)}.${'B'.repeat(3000)}.C` ],
    [ 'jku header to the metadata address', `Bearer ${b64url({ alg: 'ES256', jku: 'http://169.254.169.254/jwks' })}.${realPayload}.${realSignature}` ],
  ];
  return { values, ghost, ghostName };
}
