import { createHash, randomUUID } from 'node:crypto';
import type { JWK, KeyLike } from 'jose';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { SolidTokenCache } from '../../../../src/handlers/auth/SolidTokenCache';

const URL_ = 'https://pod.example/pods/alice/notes.ttl';

interface Client { privateKey: KeyLike; jwk: JWK; jkt: string; alg?: string }

async function client(alg = 'ES256'): Promise<Client> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, 'sha256'), alg };
}

/** An access token's payload as the cache reads it (its signature was checked by CSS's verifier). */
async function accessToken(jkt: string | undefined, expiresInS = 3600): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256');
  return new SignJWT({ webid: 'https://pod.example/actors/alice', ...jkt ? { cnf: { jkt }} : {}})
    .setProtectedHeader({ alg: 'ES256' }).setIssuedAt().setExpirationTime(Math.floor(Date.now() / 1000) + expiresInS)
    .sign(privateKey);
}

async function proof(signer: Client, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({ htm: 'GET', htu: URL_, jti: randomUUID(), ...claims })
    .setProtectedHeader({ alg: signer.alg ?? 'ES256', typ: 'dpop+jwt', jwk: signer.jwk, ...header })
    .setIssuedAt(typeof claims.iat === 'number' ? claims.iat : undefined)
    .sign(signer.privateKey);
}

describe('SolidTokenCache', (): void => {
  let cache: SolidTokenCache;
  let alice: Client;
  let token: string;

  beforeEach(async(): Promise<void> => {
    cache = new SolidTokenCache();
    alice = await client();
    token = await accessToken(alice.jkt);
  });

  it('knows only tokens it was given, with the scheme they came with, until they expire', async(): Promise<void> => {
    expect(cache.get('DPoP', token)).toBeUndefined();
    cache.remember('DPoP', token, 'https://pod.example/actors/alice');
    expect(cache.get('dpop', token)).toEqual(expect.objectContaining({ webId: 'https://pod.example/actors/alice', jkt: alice.jkt }));
    expect(cache.get('Bearer', token)).toBeUndefined();
    const expired = await accessToken(alice.jkt, -10);
    cache.remember('DPoP', expired, 'https://pod.example/actors/alice');
    expect(cache.get('DPoP', expired)).toBeUndefined();
    const unbound = await accessToken(undefined);
    cache.remember('DPoP', unbound, 'https://pod.example/actors/alice');
    expect(cache.get('DPoP', unbound)).toBeUndefined();
    cache.remember('DPoP', 'not a jwt', 'https://pod.example/actors/alice');
    expect(cache.get('DPoP', 'not a jwt')).toBeUndefined();
  });

  it('accepts a fresh proof for this request, signed with the bound key, once', async(): Promise<void> => {
    cache.remember('DPoP', token, 'https://pod.example/actors/alice');
    const entry = cache.get('DPoP', token)!;
    const good = await proof(alice, { htu: `${URL_}?page=2` });
    await expect(cache.checkProof(entry, token, good, 'GET', `${URL_}?other`)).resolves.toBeUndefined();
    await expect(cache.checkProof(entry, token, good, 'GET', URL_)).rejects.toThrow('used before');
    const withHash = await proof(alice, { ath: createHash('sha256').update(token).digest('base64url') });
    await expect(cache.checkProof(entry, token, withHash, 'GET', URL_)).resolves.toBeUndefined();
  });

  it('refuses the proof that came with the first, verified request', async(): Promise<void> => {
    const first = await proof(alice);
    cache.remember('DPoP', token, 'https://pod.example/actors/alice', first);
    await expect(cache.checkProof(cache.get('DPoP', token)!, token, first, 'GET', URL_)).rejects.toThrow('used before');
  });

  it('refuses proofs that are missing, for another request, key or token, old, or not DPoP proofs', async(): Promise<void> => {
    cache.remember('DPoP', token, 'https://pod.example/actors/alice');
    const entry = cache.get('DPoP', token)!;
    const check = async(candidate: string | undefined): Promise<void> => cache.checkProof(entry, token, candidate, 'GET', URL_);
    await expect(check(undefined)).rejects.toThrow('needs a DPoP proof');
    await expect(check(await proof(alice, { htm: 'PUT' }))).rejects.toThrow('not GET');
    await expect(check(await proof(alice, { htu: 'https://pod.example/pods/bob/' }))).rejects.toThrow('another URL');
    await expect(check(await proof(await client()))).rejects.toThrow('bound to');
    await expect(check(await proof(alice, { ath: 'b3RoZXI' }))).rejects.toThrow('another access token');
    await expect(check(await proof(alice, { iat: Math.floor(Date.now() / 1000) - 120 }))).rejects.toThrow();
    await expect(check(await proof(alice, {}, { typ: 'JWT' }))).rejects.toThrow('dpop+jwt');
    await expect(check(await proof(alice, { jti: '' }))).rejects.toThrow('used before');
  });

  it('checks signatures and times of every algorithm alike (ECDSA with node:crypto, the others with jose)', async(): Promise<void> => {
    for (const alg of [ 'ES256', 'ES384', 'ES512', 'RS256', 'EdDSA' ]) {
      const signer = await client(alg);
      const bound = await accessToken(signer.jkt);
      cache.remember('DPoP', bound, 'https://pod.example/actors/alice');
      const entry = cache.get('DPoP', bound)!;
      const check = async(candidate: string): Promise<void> => cache.checkProof(entry, bound, candidate, 'GET', URL_);
      const now = Math.floor(Date.now() / 1000);
      await expect(check(await proof(signer))).resolves.toBeUndefined();
      // The same header (its key kept from the proof before) over a signature of other claims.
      const [ header, payload ] = (await proof(signer)).split('.');
      const [ , , otherSignature ] = (await proof(signer, { htm: 'PUT' })).split('.');
      await expect(check(`${header}.${payload}.${otherSignature}`)).rejects.toThrow('signature verification failed');
      await expect(check(`${header}.${payload}`)).rejects.toThrow();
      await expect(check(await proof(signer, { iat: now + 60 }))).rejects.toThrow('iat');
      await expect(check(await proof(signer, { iat: now - 70 }))).rejects.toThrow('iat');
      await expect(check(await proof(signer, { exp: now - 10 }))).rejects.toThrow('exp');
      await expect(check(await proof(signer, { nbf: now + 60 }))).rejects.toThrow('nbf');
      await expect(check(await proof(signer, { iat: now - 50, nbf: now - 1, exp: now + 10 }))).resolves.toBeUndefined();
    }
  });

  it('refuses a proof without iat, and one signed with a key of another curve than its algorithm names', async(): Promise<void> => {
    cache.remember('DPoP', token, 'https://pod.example/actors/alice');
    const entry = cache.get('DPoP', token)!;
    const unsigned = await new SignJWT({ htm: 'GET', htu: URL_, jti: randomUUID() })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: alice.jwk }).sign(alice.privateKey);
    await expect(cache.checkProof(entry, token, unsigned, 'GET', URL_)).rejects.toThrow('iat');
    const p384 = await client('ES384');
    const p384Token = await accessToken(p384.jkt);
    cache.remember('DPoP', p384Token, 'https://pod.example/actors/alice');
    const mislabelled = await proof(p384, {}, { alg: 'ES256' }).catch((): string => '');
    await expect(cache.checkProof(cache.get('DPoP', p384Token)!, p384Token, mislabelled || 'x.y.z', 'GET', URL_)).rejects.toThrow();
  });
});
