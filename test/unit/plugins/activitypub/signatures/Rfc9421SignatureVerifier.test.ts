import { createPrivateKey, createPublicKey, sign as cryptoSign, verify as cryptoVerify } from 'node:crypto';
import { parseDictionary, type InnerList } from 'structured-headers';
import { DigestVerifier } from '../../../../../src/plugins/activitypub/signatures/DigestVerifier';
import type {
  KeyResolver,
  VerifiableRequest,
  VerifyOptions,
  VerifyResult,
} from '../../../../../src/plugins/activitypub/signatures/HttpSignatureVerifier';
import {
  rfc9421SignatureBase,
  Rfc9421SignatureVerifier,
} from '../../../../../src/plugins/activitypub/signatures/Rfc9421SignatureVerifier';
import { SignatureCheck } from '../../../../../src/plugins/activitypub/signatures/SignatureCheck';
import { ACTOR, KEY_ID, NOW, resolverFor, rsa, signedRequest, withHeader } from './signing-fixtures';

const rfc9421 = new Rfc9421SignatureVerifier(new DigestVerifier());

async function verify(request: VerifiableRequest, resolveKey: KeyResolver, options: VerifyOptions = {}): Promise<VerifyResult> {
  return rfc9421.verify(request, new URL(request.url), new SignatureCheck(resolveKey, options));
}

describe('Rfc9421SignatureVerifier', () => {
  it('verifies what HttpSigner signed, as RFC 9421', async () => {
    await expect(verify(signedRequest('rfc9421'), resolverFor(rsa.publicKey), { now: NOW }))
      .resolves.toEqual({ ok: true, keyId: KEY_ID, owner: ACTOR, scheme: 'rfc9421' });
  });

  function resign(components: string[], params: string, request = signedRequest('rfc9421')): VerifiableRequest {
    const values: Record<string, string> = {
      '@method': request.method,
      '@target-uri': request.url,
      '@authority': new URL(request.url).host,
      '@path': new URL(request.url).pathname,
      '@request-target': new URL(request.url).pathname,
    };
    const list = `(${components.map((c) => `"${c}"`).join(' ')})${params}`;
    const base = [ ...components.map((c) => `"${c}": ${values[c] ?? request.headers[c] as string}`), `"@signature-params": ${list}` ];
    const signature = cryptoSign('sha256', Buffer.from(base.join('\n')), rsa.privateKey).toString('base64');
    return { ...request, headers: { ...request.headers, 'signature-input': `sig1=${list}`, signature: `sig1=:${signature}:` } };
  }
  const created = `;created=${NOW / 1000}`;
  const keyid = `;keyid="${KEY_ID}"`;

  it('accepts a signature without alg (Mastodon) and with other parameters', async () => {
    const request = resign([ '@method', '@target-uri', 'content-digest' ], `${created}${keyid};nonce="abc";tag="t"`);
    await expect(verify(request, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
  });

  it('accepts @authority + @path instead of @target-uri, and Fedify\'s default components', async () => {
    const split = resign([ '@method', '@authority', '@path', 'content-digest' ], `${created}${keyid}`);
    await expect(verify(split, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
    const base = signedRequest('rfc9421');
    const fedifyLike = resign([ '@method', '@target-uri', '@authority', 'host', 'date', 'content-digest' ], `;alg="rsa-v1_5-sha256"${keyid}${created}`, {
      ...base,
      headers: { ...base.headers, date: new Date(NOW).toUTCString() },
    });
    await expect(verify(fedifyLike, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
  });

  it.each([
    [ [ '@target-uri', 'content-digest' ], `${created}${keyid}`, '@method is not covered' ],
    [ [ '@method', 'content-digest' ], `${created}${keyid}`, '@target-uri is not covered' ],
    [ [ '@method', '@path', 'content-digest' ], `${created}${keyid}`, '@target-uri is not covered' ],
    [ [ '@method', '@target-uri' ], `${created}${keyid}`, 'content-digest is not covered' ],
    [ [ '@method', '@target-uri', 'content-digest' ], keyid, 'signature sig1 has no created' ],
    [ [ '@method', '@target-uri', 'content-digest' ], created, 'signature sig1 has no keyid' ],
    [ [ '@method', '@target-uri', 'content-digest' ], `${created}${keyid};alg="hmac-sha256"`, 'unsupported alg in sig1' ],
    [ [ '@method', '@target-uri', 'content-digest' ], `${created}${keyid};expires=${NOW / 1000 - 1}`, 'signature expired (expires)' ],
    [ [ '@method', '@target-uri', 'content-digest', 'x-missing' ], `${created}${keyid}`, 'covered field x-missing is missing' ],
    [ [ '@method', '@target-uri', 'content-digest', '@status' ], `${created}${keyid}`, 'unsupported derived component @status' ],
    [ [ '@method', '@method', '@target-uri', 'content-digest' ], `${created}${keyid}`, 'component @method is covered twice' ],
  ])('refuses %j with %s', async (components, params, reason) => {
    const result = await verify(resign(components, params), resolverFor(rsa.publicKey), { now: NOW });
    expect(result).toMatchObject({ ok: false, reason });
  });

  it('tries each signature label and accepts the valid one', async () => {
    const good = signedRequest('rfc9421');
    const request = withHeader(
      withHeader(good, 'signature-input', `bad=("@method" "@target-uri" "content-digest")${created};keyid="${KEY_ID}", ${(good.headers['signature-input'] as string)}`),
      'signature',
      `bad=:AAAA:, ${good.headers.signature as string}`,
    );
    await expect(verify(request, resolverFor(rsa.publicKey), { now: NOW, refreshKeyOnFailure: false }))
      .resolves.toMatchObject({ ok: true });
  });

  it.each([
    [ 'signature-input', 'sig1=("@method" "@target-uri"', /^malformed Signature-Input/u ],
    [ 'signature-input', 'sig1="@method"', /is not an inner list/u ],
    [ 'signature', 'sig1=:not base64!:', /^malformed Signature/u ],
    [ 'signature', 'sig2=:AAAA:', /^no signature value for sig1/u ],
    [ 'signature', 'sig1="AAAA"', /^no signature value for sig1/u ],
    [ 'content-digest', 'sha-256=abc', /Content-Digest/u ],
    [ 'content-digest', 'md5=:AAAA:', /Content-Digest has no sha-256/u ],
  ])('returns a reason for a malformed %s %j', async (name, value, reason) => {
    const result = await verify(withHeader(signedRequest('rfc9421'), name, value), resolverFor(rsa.publicKey), { now: NOW });
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(reason) });
  });

  it('builds and verifies the signature base of RFC 9421 appendix B.2.6 (ed25519)', () => {
    // The published test key, request and signature (RFC 9421 B.1.4, B.2, B.2.6): a check of
    // parsing and re-serializing Signature-Input and of the base, independent of HttpSigner.
    const publicKey = createPublicKey('-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=\n-----END PUBLIC KEY-----\n');
    const privateKey = createPrivateKey('-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n-----END PRIVATE KEY-----\n');
    const published = 'wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==';
    const request: VerifiableRequest = {
      method: 'POST',
      url: 'https://example.com/foo?param=Value&Pet=dog',
      headers: {
        host: 'example.com',
        date: 'Tue, 20 Apr 2021 02:07:55 GMT',
        'content-type': 'application/json',
        'content-length': '18',
      },
    };
    // Extra optional whitespace that the canonical serialization drops.
    const input = parseDictionary('sig-b26=("date"  "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"').get('sig-b26')!;
    const built = rfc9421SignatureBase(request, new URL(request.url), input as InnerList);
    expect(built).toEqual({
      base: [
        '"date": Tue, 20 Apr 2021 02:07:55 GMT',
        '"@method": POST',
        '"@path": /foo',
        '"@authority": example.com',
        '"content-type": application/json',
        '"content-length": 18',
        '"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
      ].join('\n'),
      names: new Set([ 'date', '@method', '@path', '@authority', 'content-type', 'content-length' ]),
    });
    const { base } = built as { base: string };
    expect(cryptoSign(null, Buffer.from(base), privateKey).toString('base64')).toBe(published);
    expect(cryptoVerify(null, Buffer.from(base), publicKey, Buffer.from(published, 'base64'))).toBe(true);
  });

  it('derives the other components as RFC 9421 §2.2 says', () => {
    const request: VerifiableRequest = { method: 'GET', url: 'https://www.Example.com:443/path?param=value&foo=bar&baz=bat%2Dman', headers: {} };
    const input = parseDictionary('s=("@target-uri" "@authority" "@scheme" "@request-target" "@path" "@query")').get('s')!;
    const built = rfc9421SignatureBase(request, new URL(request.url), input as InnerList) as { base: string };
    expect(built.base.split('\n')).toEqual([
      '"@target-uri": https://www.example.com/path?param=value&foo=bar&baz=bat%2Dman',
      '"@authority": www.example.com',
      '"@scheme": https',
      '"@request-target": /path?param=value&foo=bar&baz=bat%2Dman',
      '"@path": /path',
      '"@query": ?param=value&foo=bar&baz=bat%2Dman',
      '"@signature-params": ("@target-uri" "@authority" "@scheme" "@request-target" "@path" "@query")',
    ]);
    const noQuery = rfc9421SignatureBase({ ...request, url: 'https://example.com' }, new URL('https://example.com'), parseDictionary('s=("@query" "@path")').get('s') as InnerList) as { base: string };
    expect(noQuery.base.split('\n').slice(0, 2)).toEqual([ '"@query": ?', '"@path": /' ]);
  });

  it.each([
    [ `;created=${NOW / 1000};keyid=token`, 'signature sig1 has no keyid' ],
    [ `;created=${NOW / 1000}.5;keyid="${KEY_ID}"`, 'signature sig1 has no created' ],
    [ `;created="${NOW / 1000}";keyid="${KEY_ID}"`, 'signature sig1 has no created' ],
    [ `;created=${NOW / 1000};keyid="${KEY_ID}";expires=?1`, 'invalid expires parameter' ],
    [ `;created=${NOW / 1000};keyid="${KEY_ID}";alg=ed25519`, 'unsupported alg in sig1' ],
  ])('reads Signature-Input parameters by their structured type (%s)', async (params, reason) => {
    const request = withHeader(signedRequest('rfc9421'), 'signature-input', `sig1=("@method" "@target-uri" "content-digest")${params}`);
    await expect(verify(request, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: false, reason });
  });

  it('refuses a covered component with parameters', async () => {
    const request = withHeader(
      signedRequest('rfc9421'),
      'signature-input',
      `sig1=("@method" "@target-uri" "content-digest";sf);created=${NOW / 1000};keyid="${KEY_ID}"`,
    );
    await expect(verify(request, resolverFor(rsa.publicKey), { now: NOW }))
      .resolves.toMatchObject({ ok: false, reason: 'unsupported parameters on component content-digest' });
  });

  it('tries at most four signature labels', async () => {
    const good = signedRequest('rfc9421');
    const bad = [ 'a', 'b', 'c', 'd' ];
    const inputs = bad.map((label) => `${label}=("@method")`).join(', ');
    const signatures = bad.map((label) => `${label}=:AAAA:`).join(', ');
    const request = withHeader(
      withHeader(good, 'signature-input', `${inputs}, ${good.headers['signature-input'] as string}`),
      'signature',
      `${signatures}, ${good.headers.signature as string}`,
    );
    await expect(verify(request, resolverFor(rsa.publicKey), { now: NOW }))
      .resolves.toEqual({ ok: false, reason: 'signature a has no keyid' });
    const three = withHeader(
      withHeader(good, 'signature-input', `a=("@method"), b=("@method"), c=("@method"), ${good.headers['signature-input'] as string}`),
      'signature',
      `a=:AAAA:, b=:AAAA:, c=:AAAA:, ${good.headers.signature as string}`,
    );
    await expect(verify(three, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
  });
});
