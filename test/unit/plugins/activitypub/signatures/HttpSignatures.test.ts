import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign as cryptoSign,
  verify as cryptoVerify,
  type KeyObject,
} from 'node:crypto';
import { HttpSigner } from '../../../../../src/plugins/activitypub/signatures/HttpSigner';
import { WorkerThreadSigner } from '../../../../../src/plugins/activitypub/signatures/WorkerThreadSigner';
import {
  HttpSignatureVerifier,
  parseCavageParams,
  rfc9421SignatureBase,
  type KeyResolver,
  type VerifiableRequest,
} from '../../../../../src/plugins/activitypub/signatures/HttpSignatureVerifier';
import type { SignatureScheme } from '../../../../../src/plugins/activitypub/signatures/SignatureCommon';
import { parseDictionary, type SfInnerList } from '../../../../../src/plugins/activitypub/signatures/StructuredFields';

const ACTOR = 'https://remote.example/users/alice';
const KEY_ID = `${ACTOR}#main-key`;
const INBOX = 'https://local.example/users/bob/inbox';
const NOW = Date.parse('2025-06-01T12:00:00Z');
const BODY = Buffer.from(JSON.stringify({ type: 'Create', actor: ACTOR, object: { type: 'Note', content: 'hi' } }));

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherRsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ed = generateKeyPairSync('ed25519');

const signer = new HttpSigner();
const verifier = new HttpSignatureVerifier();

function resolverFor(publicKey: KeyObject, owner = ACTOR): KeyResolver & jest.Mock {
  return jest.fn(async (keyId: string) => (keyId === KEY_ID ? { publicKey, owner } : undefined)) as KeyResolver & jest.Mock;
}

/** Signs a request like a sender and returns it as the receiving server sees it. */
function signedRequest(
  scheme: SignatureScheme,
  options: { method?: string; url?: string; body?: Buffer; privateKey?: KeyObject; now?: number } = {},
): VerifiableRequest {
  const method = options.method ?? 'POST';
  const url = options.url ?? INBOX;
  const body = method === 'GET' ? undefined : (options.body ?? BODY);
  const headers: Record<string, string> = { 'Content-Type': 'application/activity+json', Host: new URL(url).host };
  const added = signer.sign(
    { method, url, headers, ...body === undefined ? {} : { body } },
    { keyId: KEY_ID, privateKey: options.privateKey ?? rsa.privateKey },
    scheme,
    { now: options.now ?? NOW },
  );
  const received: Record<string, string> = {};
  for (const [ name, value ] of Object.entries({ ...headers, ...added })) {
    received[name.toLowerCase()] = value;
  }
  return { method, url, headers: received, ...body === undefined ? {} : { body } };
}

function withHeader(request: VerifiableRequest, name: string, value: string | undefined): VerifiableRequest {
  const headers = { ...request.headers, [name]: value };
  if (value === undefined) {
    delete headers[name];
  }
  return { ...request, headers };
}

describe('HttpSigner', () => {
  it('adds Date, Digest and a Mastodon-style Signature (cavage)', () => {
    const added = signer.sign(
      { method: 'POST', url: INBOX, headers: {}, body: BODY },
      { keyId: KEY_ID, privateKey: rsa.privateKey },
      'cavage',
      { now: NOW },
    );
    expect(Object.keys(added).sort()).toEqual([ 'Date', 'Digest', 'Signature' ]);
    expect(added.Date).toBe('Sun, 01 Jun 2025 12:00:00 GMT');
    expect(added.Digest).toMatch(/^SHA-256=[A-Za-z0-9+/]{43}=$/u);
    expect(added.Signature).toMatch(
      /^keyId="https:\/\/remote\.example\/users\/alice#main-key",algorithm="rsa-sha256",headers="\(request-target\) host date digest",signature="[A-Za-z0-9+/]+=*"$/u,
    );
  });

  it('keeps a given Date and signs GETs without a digest (cavage)', () => {
    const added = signer.sign(
      { method: 'GET', url: ACTOR, headers: { date: 'Sun, 01 Jun 2025 11:59:00 GMT' } },
      { keyId: KEY_ID, privateKey: rsa.privateKey },
      'cavage',
    );
    expect(Object.keys(added)).toEqual([ 'Signature' ]);
    expect(added.Signature).toContain('headers="(request-target) host date"');
  });

  it('builds the RFC 9421 signature base exactly', () => {
    const added = signer.sign(
      { method: 'POST', url: INBOX, headers: {}, body: BODY },
      { keyId: KEY_ID, privateKey: rsa.privateKey },
      'rfc9421',
      { now: NOW },
    );
    const created = NOW / 1000;
    expect(added['Content-Digest']).toMatch(/^sha-256=:[A-Za-z0-9+/]{43}=:$/u);
    expect(added['Signature-Input']).toBe(
      `sig1=("@method" "@target-uri" "content-digest");created=${created};keyid="${KEY_ID}";alg="rsa-v1_5-sha256"`,
    );
    const base = [
      '"@method": POST',
      `"@target-uri": ${INBOX}`,
      `"content-digest": ${added['Content-Digest']}`,
      `"@signature-params": ("@method" "@target-uri" "content-digest");created=${created};keyid="${KEY_ID}";alg="rsa-v1_5-sha256"`,
    ].join('\n');
    // RSASSA-PKCS1-v1_5 is deterministic: the same base gives the same signature.
    const expected = cryptoSign('sha256', Buffer.from(base), rsa.privateKey).toString('base64');
    expect(added.Signature).toBe(`sig1=:${expected}:`);
  });

  it('signs only "@method" "@target-uri" for a GET (RFC 9421)', () => {
    const added = signer.sign({ method: 'get', url: ACTOR, headers: {} }, { keyId: KEY_ID, privateKey: rsa.privateKey }, 'rfc9421');
    expect(added['Content-Digest']).toBeUndefined();
    expect(added['Signature-Input']).toMatch(/^sig1=\("@method" "@target-uri"\);created=\d+;keyid="[^"]+";alg="rsa-v1_5-sha256"$/u);
  });

  it('refuses a public key or a secret key', () => {
    expect(() => signer.sign({ method: 'GET', url: ACTOR, headers: {} }, { keyId: KEY_ID, privateKey: rsa.publicKey }, 'cavage'))
      .toThrow(TypeError);
  });

  const threads = new WorkerThreadSigner();
  afterAll(async () => threads.finalize());

  it.each([
    [ 'cavage', 'libuv', undefined ],
    [ 'rfc9421', 'libuv', undefined ],
    [ 'cavage', 'signing threads', threads ],
    [ 'rfc9421', 'signing threads', threads ],
  ] as const)('signs off the calling thread to the same headers (%s, %s)', async (scheme, _where, byteSigner) => {
    const offThread = new HttpSigner(byteSigner);
    const request = { method: 'POST', url: INBOX, headers: { host: 'local.example' }, body: BODY };
    for (const privateKey of [ rsa.privateKey, ed.privateKey ]) {
      const key = { keyId: KEY_ID, privateKey };
      // PKCS#1 v1.5 and Ed25519 signatures are deterministic: both paths give the same bytes.
      await expect(offThread.signAsync(request, key, scheme, { now: NOW })).resolves.toEqual(signer.sign(request, key, scheme, { now: NOW }));
    }
    const received = await offThread.signAsync(request, { keyId: KEY_ID, privateKey: rsa.privateKey }, scheme, { now: NOW });
    const headers: Record<string, string> = { host: 'local.example' };
    for (const [ name, value ] of Object.entries(received)) {
      headers[name.toLowerCase()] = value;
    }
    await expect(verifier.verify({ method: 'POST', url: INBOX, headers, body: BODY }, resolverFor(rsa.publicKey), { now: NOW }))
      .resolves.toMatchObject({ ok: true });
    await expect(offThread.signAsync(request, { keyId: KEY_ID, privateKey: rsa.publicKey }, scheme)).rejects.toThrow(TypeError);
  });
});

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

  describe('cavage rules', () => {
    function resign(names: string, extra: Record<string, string> = {}, algorithm = 'rsa-sha256'): VerifiableRequest {
      const request = signedRequest('cavage');
      const headers = { ...request.headers, ...extra } as Record<string, string>;
      const lines = names.split(' ').map((name) =>
        name === '(request-target)' ? `${name}: post /users/bob/inbox` : `${name}: ${headers[name]}`);
      const signature = cryptoSign('sha256', Buffer.from(lines.join('\n')), rsa.privateKey).toString('base64');
      headers.signature = `keyId="${KEY_ID}",algorithm="${algorithm}",headers="${names}",signature="${signature}"`;
      return { ...request, headers };
    }

    it('accepts hs2019 and no algorithm with an RSA key', async () => {
      for (const algorithm of [ 'hs2019', 'rsa-sha256' ]) {
        const request = resign('(request-target) host date digest', {}, algorithm);
        await expect(verifier.verify(request, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
      }
      const request = resign('(request-target) host date digest');
      request.headers = { ...request.headers, signature: (request.headers.signature as string).replace('algorithm="rsa-sha256",', '') };
      await expect(verifier.verify(request, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
    });

    it('accepts extra signed headers', async () => {
      const request = resign('(request-target) host date digest content-type');
      await expect(verifier.verify(request, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
    });

    it('refuses other algorithms', async () => {
      const request = resign('(request-target) host date digest', {}, 'rsa-sha1');
      await expect(verifier.verify(request, resolverFor(rsa.publicKey), { now: NOW }))
        .resolves.toMatchObject({ ok: false, reason: 'unsupported signature algorithm rsa-sha1' });
    });

    it.each([
      [ 'host date digest', '(request-target) is not signed' ],
      [ '(request-target) date digest', 'host is not signed' ],
      [ '(request-target) host date', 'digest is not signed' ],
      [ '(request-target) host digest', 'neither date nor (created) is signed' ],
    ])('refuses a POST signed over "%s"', async (names, reason) => {
      const result = await verifier.verify(resign(names), resolverFor(rsa.publicKey), { now: NOW });
      expect(result).toEqual({ ok: false, reason, keyId: KEY_ID });
    });

    it('refuses a Digest that is not SHA-256/512, and a missing Date', async () => {
      const md5 = resign('(request-target) host date digest', { digest: 'MD5=1B2M2Y8AsgTpgAEPq9N3Tw==' });
      await expect(verifier.verify(md5, resolverFor(rsa.publicKey), { now: NOW }))
        .resolves.toMatchObject({ ok: false, reason: 'Digest has no SHA-256' });
      const noDate = withHeader(signedRequest('cavage'), 'date', undefined);
      await expect(verifier.verify(noDate, resolverFor(rsa.publicKey), { now: NOW }))
        .resolves.toMatchObject({ ok: false, reason: 'signed header date is missing' });
    });

    it('accepts a (request-target) signed without the query string (old Mastodon, Fedify)', async () => {
      const url = `${ACTOR}/outbox?page=2`;
      const date = new Date(NOW).toUTCString();
      const text = `(request-target): get /users/alice/outbox\nhost: remote.example\ndate: ${date}`;
      const signature = cryptoSign('sha256', Buffer.from(text), rsa.privateKey).toString('base64');
      const request = {
        method: 'GET',
        url,
        headers: {
          host: 'remote.example',
          date,
          signature: `keyId="${KEY_ID}",algorithm="rsa-sha256",headers="(request-target) host date",signature="${signature}"`,
        },
      };
      await expect(verifier.verify(request, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
    });

    it.each([
      'garbage',
      'keyId="a",signature="b",',
      'keyId="a",keyId="b",signature="c"',
      'keyId="a",signature="!!!"',
      'signature="abc="',
      '',
    ])('returns a reason for the malformed Signature %j', async (value) => {
      const request = withHeader(signedRequest('cavage'), 'signature', value);
      const result = await verifier.verify(request, resolverFor(rsa.publicKey), { now: NOW });
      expect(result.ok).toBe(false);
    });

    it('parses Signature parameters with commas in quoted values and numbers', () => {
      expect(parseCavageParams('keyId="https://a/b,c", created=1700000000,Signature="x=="')).toEqual(new Map([
        [ 'keyid', 'https://a/b,c' ],
        [ 'created', '1700000000' ],
        [ 'signature', 'x==' ],
      ]));
    });
  });

  describe('RFC 9421 rules', () => {
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
      await expect(verifier.verify(request, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
    });

    it('accepts @authority + @path instead of @target-uri, and Fedify\'s default components', async () => {
      const split = resign([ '@method', '@authority', '@path', 'content-digest' ], `${created}${keyid}`);
      await expect(verifier.verify(split, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
      const base = signedRequest('rfc9421');
      const fedifyLike = resign([ '@method', '@target-uri', '@authority', 'host', 'date', 'content-digest' ], `;alg="rsa-v1_5-sha256"${keyid}${created}`, {
        ...base,
        headers: { ...base.headers, date: new Date(NOW).toUTCString() },
      });
      await expect(verifier.verify(fedifyLike, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
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
      const result = await verifier.verify(resign(components, params), resolverFor(rsa.publicKey), { now: NOW });
      expect(result).toMatchObject({ ok: false, reason });
    });

    it('tries each signature label and accepts the valid one', async () => {
      const good = signedRequest('rfc9421');
      const request = withHeader(
        withHeader(good, 'signature-input', `bad=("@method" "@target-uri" "content-digest")${created};keyid="${KEY_ID}", ${(good.headers['signature-input'] as string)}`),
        'signature',
        `bad=:AAAA:, ${good.headers.signature as string}`,
      );
      await expect(verifier.verify(request, resolverFor(rsa.publicKey), { now: NOW, refreshKeyOnFailure: false }))
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
      const result = await verifier.verify(withHeader(signedRequest('rfc9421'), name, value), resolverFor(rsa.publicKey), { now: NOW });
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
      const built = rfc9421SignatureBase(request, new URL(request.url), input as SfInnerList);
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
      const built = rfc9421SignatureBase(request, new URL(request.url), input as SfInnerList) as { base: string };
      expect(built.base.split('\n')).toEqual([
        '"@target-uri": https://www.example.com/path?param=value&foo=bar&baz=bat%2Dman',
        '"@authority": www.example.com',
        '"@scheme": https',
        '"@request-target": /path?param=value&foo=bar&baz=bat%2Dman',
        '"@path": /path',
        '"@query": ?param=value&foo=bar&baz=bat%2Dman',
        '"@signature-params": ("@target-uri" "@authority" "@scheme" "@request-target" "@path" "@query")',
      ]);
      const noQuery = rfc9421SignatureBase({ ...request, url: 'https://example.com' }, new URL('https://example.com'), parseDictionary('s=("@query" "@path")').get('s') as SfInnerList) as { base: string };
      expect(noQuery.base.split('\n').slice(0, 2)).toEqual([ '"@query": ?', '"@path": /' ]);
    });
  });
});
