import {
  HttpSignatureVerifier,
  type KeyResolver,
} from '../../../../../src/plugins/activitypub/signatures/HttpSignatureVerifier';
import {
  ACTOR,
  BODY,
  ed,
  INBOX,
  KEY_ID,
  NOW,
  otherRsa,
  resolverFor,
  rsa,
  signedRequest,
  withHeader,
} from './signing-fixtures';

const verifier = new HttpSignatureVerifier();

describe('HttpSignatureVerifier', () => {
  describe.each([ 'cavage', 'rfc9421' ] as const)('%s', (scheme) => {
    it('verifies what HttpSigner signed (POST)', async () => {
      const resolveKey = resolverFor(rsa.publicKey);
      const result = await verifier.verify(signedRequest(scheme), resolveKey, { now: NOW });
      expect(result).toEqual({ ok: true, keyId: KEY_ID, owner: ACTOR, scheme });
      expect(resolveKey).toHaveBeenCalledTimes(1);
    });

    it('verifies a signed GET with a query string', async () => {
      const request = signedRequest(scheme, { method: 'GET', url: `${ACTOR}/outbox?page=true` });
      await expect(verifier.verify(request, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
    });

    it('verifies Ed25519 signatures', async () => {
      const request = signedRequest(scheme, { privateKey: ed.privateKey });
      await expect(verifier.verify(request, resolverFor(ed.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
    });

    it('accepts a signature 11 hours old or 59 minutes ahead', async () => {
      const resolveKey = resolverFor(rsa.publicKey);
      await expect(verifier.verify(signedRequest(scheme, { now: NOW - 11 * 3_600_000 }), resolveKey, { now: NOW }))
        .resolves.toMatchObject({ ok: true });
      await expect(verifier.verify(signedRequest(scheme, { now: NOW + 59 * 60_000 }), resolveKey, { now: NOW }))
        .resolves.toMatchObject({ ok: true });
    });

    it('refuses a tampered body', async () => {
      const request = { ...signedRequest(scheme), body: Buffer.from('{"type":"Delete"}') };
      const result = await verifier.verify(request, resolverFor(rsa.publicKey), { now: NOW });
      expect(result).toEqual({ ok: false, reason: expect.stringMatching(/Digest does not match the body/u), keyId: KEY_ID });
    });

    it('refuses a digest header changed to match a tampered body', async () => {
      const request = signedRequest(scheme);
      const other = signedRequest(scheme, { body: Buffer.from('{"type":"Delete"}') });
      const digestHeader = scheme === 'cavage' ? 'digest' : 'content-digest';
      const tampered = { ...withHeader(request, digestHeader, other.headers[digestHeader] as string), body: other.body };
      const result = await verifier.verify(tampered, resolverFor(rsa.publicKey), { now: NOW, refreshKeyOnFailure: false });
      expect(result).toEqual({ ok: false, reason: 'signature does not verify', keyId: KEY_ID });
    });

    it('refuses a request sent to another URL', async () => {
      const request = { ...signedRequest(scheme), url: 'https://local.example/users/carol/inbox' };
      const result = await verifier.verify(request, resolverFor(rsa.publicKey), { now: NOW, refreshKeyOnFailure: false });
      expect(result).toMatchObject({ ok: false, reason: 'signature does not verify' });
    });

    it('refuses a request replayed to another host', async () => {
      const request = { ...signedRequest(scheme), url: 'https://elsewhere.example/users/bob/inbox' };
      const result = await verifier.verify(request, resolverFor(rsa.publicKey), { now: NOW, refreshKeyOnFailure: false });
      expect(result).toMatchObject({ ok: false, reason: 'signature does not verify' });
    });

    it('refuses a signature with another method', async () => {
      const request = { ...signedRequest(scheme), method: 'PUT' };
      const result = await verifier.verify(request, resolverFor(rsa.publicKey), { now: NOW, refreshKeyOnFailure: false });
      expect(result).toMatchObject({ ok: false, reason: 'signature does not verify' });
    });

    it('refuses an expired signature and one from the future', async () => {
      const resolveKey = resolverFor(rsa.publicKey);
      const old = await verifier.verify(signedRequest(scheme, { now: NOW - 13 * 3_600_000 }), resolveKey, { now: NOW });
      expect(old).toMatchObject({ ok: false, reason: expect.stringMatching(/^signature expired/u) });
      const future = await verifier.verify(signedRequest(scheme, { now: NOW + 61 * 60_000 }), resolveKey, { now: NOW });
      expect(future).toMatchObject({ ok: false, reason: expect.stringMatching(/in the future/u) });
      const short = await verifier.verify(signedRequest(scheme, { now: NOW - 120_000 }), resolveKey, { now: NOW, maxAgeMs: 60_000 });
      expect(short).toMatchObject({ ok: false, reason: expect.stringMatching(/^signature expired/u) });
      expect(resolveKey).not.toHaveBeenCalled();
    });

    it('refuses a signature made with another key, after one refresh of the key', async () => {
      const resolveKey = resolverFor(rsa.publicKey);
      const request = signedRequest(scheme, { privateKey: otherRsa.privateKey });
      const result = await verifier.verify(request, resolveKey, { now: NOW });
      expect(result).toEqual({ ok: false, reason: 'signature does not verify', keyId: KEY_ID });
      expect(resolveKey.mock.calls).toEqual([ [ KEY_ID ], [ KEY_ID, { refresh: true } ] ]);
    });

    it('accepts a rotated key found by the refresh', async () => {
      let rotated = false;
      const resolveKey: KeyResolver = async (_keyId, options) => {
        rotated ||= options?.refresh === true;
        return { publicKey: rotated ? otherRsa.publicKey : rsa.publicKey, owner: ACTOR };
      };
      const request = signedRequest(scheme, { privateKey: otherRsa.privateKey });
      await expect(verifier.verify(request, resolveKey, { now: NOW })).resolves.toMatchObject({ ok: true });
    });

    it('refuses an unknown key and a key that cannot be fetched', async () => {
      const request = signedRequest(scheme);
      await expect(verifier.verify(request, async () => undefined, { now: NOW }))
        .resolves.toEqual({ ok: false, reason: 'unknown key', keyId: KEY_ID });
      await expect(verifier.verify(request, async () => {
        throw new Error('connection refused');
      }, { now: NOW })).resolves.toEqual({ ok: false, reason: 'key not available: connection refused', keyId: KEY_ID });
    });

    it('refuses a key of the wrong type', async () => {
      const result = await verifier.verify(signedRequest(scheme), resolverFor(ed.publicKey), { now: NOW, refreshKeyOnFailure: false });
      expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/does not fit/u) });
    });
  });

  it('refuses an unsigned request', async () => {
    const request = { method: 'POST', url: INBOX, headers: { host: 'local.example' }, body: BODY };
    await expect(verifier.verify(request, resolverFor(rsa.publicKey))).resolves.toEqual({ ok: false, reason: 'no signature' });
  });

  it('never throws on malformed input', async () => {
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const alphabet = 'abc=:;,"()*?-1 \\\t@/#é\u0000';
    const garbage = (length: number): string =>
      Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    const good = { cavage: signedRequest('cavage'), rfc9421: signedRequest('rfc9421') };
    const throwing: KeyResolver = async () => {
      throw new TypeError('boom');
    };
    for (let i = 0; i < 500; i += 1) {
      const base = i % 2 === 0 ? good.cavage : good.rfc9421;
      const names = Object.keys(base.headers);
      const name = names[Math.floor(random() * names.length)];
      const value = random() < 0.5
        ? garbage(Math.floor(random() * 40))
        : (base.headers[name] as string).slice(0, Math.floor(random() * (base.headers[name] as string).length));
      const result = await verifier.verify(withHeader(base, name, value), i % 3 === 0 ? throwing : resolverFor(rsa.publicKey), { now: NOW });
      expect(typeof result.ok).toBe('boolean');
      if (!result.ok) {
        expect(result.reason).toEqual(expect.any(String));
      }
    }
    await expect(verifier.verify({ method: 'POST', url: 'not a url', headers: {} }, resolverFor(rsa.publicKey)))
      .resolves.toEqual({ ok: false, reason: 'invalid request URL' });
    const relative = { ...good.cavage, url: '/users/bob/inbox' };
    await expect(verifier.verify(relative, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
    const arrays = { ...good.cavage, headers: { ...good.cavage.headers, 'x-multi': [ 'a', 'b' ] } };
    await expect(verifier.verify(arrays, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
  });

  it('takes a request with Signature-Input as RFC 9421 and one with Signature alone as cavage', async () => {
    const cavage = signedRequest('cavage');
    const mixed = withHeader(cavage, 'signature-input', signedRequest('rfc9421').headers['signature-input'] as string);
    await expect(verifier.verify(mixed, resolverFor(rsa.publicKey), { now: NOW }))
      .resolves.toMatchObject({ ok: false, reason: expect.stringMatching(/^malformed Signature:/u) });
    const inputOnly = withHeader(signedRequest('rfc9421'), 'signature', undefined);
    await expect(verifier.verify(inputOnly, resolverFor(rsa.publicKey), { now: NOW }))
      .resolves.toEqual({ ok: false, reason: 'Signature-Input without Signature' });
    await expect(verifier.verify(cavage, resolverFor(rsa.publicKey), { now: NOW }))
      .resolves.toMatchObject({ ok: true, scheme: 'cavage' });
  });
});
