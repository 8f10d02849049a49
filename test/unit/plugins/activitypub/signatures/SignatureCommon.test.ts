import { generateKeyPairSync } from 'node:crypto';
import type { Rfc9421Algorithm } from '../../../../../src/plugins/activitypub/signatures/SignatureCommon';
import {
  algorithmForKey,
  derivedComponent,
  findHeader,
  keyFitsAlgorithm,
  pathAndQuery,
  sha256,
  signBytes,
  signBytesAsync,
  targetUri,
  verifyBytes,
} from '../../../../../src/plugins/activitypub/signatures/SignatureCommon';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ed = generateKeyPairSync('ed25519');
const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const DATA = Buffer.from('"@method": POST\n"@signature-params": ()');

describe('SignatureCommon', (): void => {
  it('takes the algorithm a key implies: RSA signs PKCS#1 v1.5 with SHA-256, as the fediverse does', (): void => {
    expect(algorithmForKey(rsa.publicKey)).toBe('rsa-v1_5-sha256');
    expect(algorithmForKey(ed.publicKey)).toBe('ed25519');
    expect(algorithmForKey(p256.publicKey)).toBe('ecdsa-p256-sha256');
    expect(algorithmForKey(p384.publicKey)).toBe('ecdsa-p384-sha384');
    expect(algorithmForKey(generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).publicKey)).toBeUndefined();
  });

  it('lets a key serve only the algorithms its type pins', (): void => {
    expect(keyFitsAlgorithm(rsa.publicKey, 'rsa-v1_5-sha256')).toBe(true);
    expect(keyFitsAlgorithm(rsa.publicKey, 'rsa-pss-sha512')).toBe(true);
    expect(keyFitsAlgorithm(rsa.publicKey, 'ed25519')).toBe(false);
    expect(keyFitsAlgorithm(p256.publicKey, 'ecdsa-p256-sha256')).toBe(true);
    expect(keyFitsAlgorithm(p256.publicKey, 'ecdsa-p384-sha384')).toBe(false);
    expect(keyFitsAlgorithm(ed.publicKey, 'rsa-v1_5-sha256')).toBe(false);
  });

  it.each([
    [ 'rsa-v1_5-sha256', rsa ],
    [ 'rsa-pss-sha512', rsa ],
    [ 'ed25519', ed ],
    [ 'ecdsa-p256-sha256', p256 ],
    [ 'ecdsa-p384-sha384', p384 ],
  ] as [Rfc9421Algorithm, typeof rsa][])('signs with %s on and off the main thread, and verifies only the signed bytes', async(alg, pair): Promise<void> => {
    const signature = signBytes(alg, DATA, pair.privateKey);
    const threaded = await signBytesAsync(alg, DATA, pair.privateKey);
    expect(verifyBytes(alg, DATA, pair.publicKey, signature)).toBe(true);
    expect(verifyBytes(alg, DATA, pair.publicKey, threaded)).toBe(true);
    expect(verifyBytes(alg, Buffer.from('other bytes'), pair.publicKey, signature)).toBe(false);
  });

  it('answers false, never throws, for a signature of the wrong key or shape', (): void => {
    const signature = signBytes('rsa-v1_5-sha256', DATA, rsa.privateKey);
    expect(verifyBytes('rsa-v1_5-sha256', DATA, generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey, signature)).toBe(false);
    expect(verifyBytes('ed25519', DATA, rsa.publicKey, signature)).toBe(false);
    expect(verifyBytes('ecdsa-p256-sha256', DATA, p256.publicKey, Buffer.from('short'))).toBe(false);
  });

  it('reads ECDSA signatures in DER (cavage) or raw r||s (RFC 9421) as asked', (): void => {
    const raw = signBytes('ecdsa-p256-sha256', DATA, p256.privateKey);
    expect(raw).toHaveLength(64);
    expect(verifyBytes('ecdsa-p256-sha256', DATA, p256.publicKey, raw)).toBe(true);
    expect(verifyBytes('ecdsa-p256-sha256', DATA, p256.publicKey, raw, true)).toBe(false);
  });

  it('hashes an absent body as the empty one', (): void => {
    expect(sha256(undefined).toString('base64')).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
    expect(sha256('')).toEqual(sha256(undefined));
  });

  it('finds a header whatever the case of its name', (): void => {
    const headers = { 'Content-Type': 'application/activity+json', digest: 'x' };
    expect(findHeader(headers, 'content-type')).toBe('application/activity+json');
    expect(findHeader(headers, 'Digest')).toBe('x');
    expect(findHeader(headers, 'signature')).toBeUndefined();
  });

  it('derives the RFC 9421 components of a request, the target without its fragment', (): void => {
    const url = new URL('https://pod.example:8443/users/a/inbox?page=2#frag');
    expect(pathAndQuery(url)).toBe('/users/a/inbox?page=2');
    expect(targetUri(url)).toBe('https://pod.example:8443/users/a/inbox?page=2');
    expect(targetUri(new URL('https://pod.example/x'))).toBe('https://pod.example/x');
    expect(derivedComponent('@method', 'POST', url)).toBe('POST');
    expect(derivedComponent('@authority', 'POST', url)).toBe('pod.example:8443');
    expect(derivedComponent('@scheme', 'POST', url)).toBe('https');
    expect(derivedComponent('@path', 'POST', url)).toBe('/users/a/inbox');
    expect(derivedComponent('@query', 'POST', url)).toBe('?page=2');
    expect(derivedComponent('@query', 'POST', new URL('https://pod.example/inbox'))).toBe('?');
    expect(derivedComponent('@request-target', 'POST', url)).toBe('/users/a/inbox?page=2');
    expect(derivedComponent('@status', 'POST', url)).toBeUndefined();
  });
});
