import { sign as cryptoSign } from 'node:crypto';
import { isInnerList, parseDictionary } from 'structured-headers';
import { HttpSignatureVerifier } from '../../../../../src/plugins/activitypub/signatures/HttpSignatureVerifier';
import { HttpSigner } from '../../../../../src/plugins/activitypub/signatures/HttpSigner';
import { WorkerThreadSigner } from '../../../../../src/plugins/activitypub/signatures/WorkerThreadSigner';
import { ACTOR, BODY, ed, INBOX, KEY_ID, NOW, resolverFor, rsa } from './signing-fixtures';

const signer = new HttpSigner();
const verifier = new HttpSignatureVerifier();

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

  it('writes RFC 9421 fields that parse back to what was signed', () => {
    const added = signer.sign(
      { method: 'POST', url: INBOX, headers: {}, body: BODY },
      { keyId: KEY_ID, privateKey: rsa.privateKey },
      'rfc9421',
      { now: NOW },
    );
    const input = parseDictionary(added['Signature-Input']).get('sig1')!;
    expect(isInnerList(input)).toBe(true);
    const [ components, params ] = input as [ [string, Map<string, unknown>][], Map<string, unknown> ];
    expect(components.map(([ name ]) => name)).toEqual([ '@method', '@target-uri', 'content-digest' ]);
    expect([ ...params ]).toEqual([ [ 'created', NOW / 1000 ], [ 'keyid', KEY_ID ], [ 'alg', 'rsa-v1_5-sha256' ] ]);
    const signature = parseDictionary(added.Signature).get('sig1')!;
    expect(Buffer.from(signature[0] as ArrayBuffer).length).toBe(256);
    const digest = parseDictionary(added['Content-Digest']).get('sha-256')!;
    expect(Buffer.from(digest[0] as ArrayBuffer).toString('base64')).toBe(
      added['Content-Digest'].slice('sha-256=:'.length, -1),
    );
  });

  it('escapes a keyid with quotes and backslashes (RFC 9421) and refuses one under cavage', async () => {
    const keyId = 'https://remote.example/keys/"odd"\\one';
    const url = INBOX;
    const added = signer.sign({ method: 'GET', url, headers: {} }, { keyId, privateKey: rsa.privateKey }, 'rfc9421', { now: NOW });
    expect(added['Signature-Input']).toContain('keyid="https://remote.example/keys/\\"odd\\"\\\\one"');
    const headers = { host: 'local.example', 'signature-input': added['Signature-Input'], signature: added.Signature };
    const resolveKey = jest.fn(async () => ({ publicKey: rsa.publicKey, owner: ACTOR }));
    await expect(verifier.verify({ method: 'GET', url, headers }, resolveKey, { now: NOW })).resolves.toMatchObject({ ok: true, keyId });
    expect(resolveKey).toHaveBeenCalledWith(keyId);
    expect(() => signer.sign({ method: 'GET', url, headers: {} }, { keyId, privateKey: rsa.privateKey }, 'cavage')).toThrow(TypeError);
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
