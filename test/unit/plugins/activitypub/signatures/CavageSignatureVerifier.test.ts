import { sign as cryptoSign } from 'node:crypto';
import { CavageSignatureVerifier, parseCavageParams } from '../../../../../src/plugins/activitypub/signatures/CavageSignatureVerifier';
import { DigestVerifier } from '../../../../../src/plugins/activitypub/signatures/DigestVerifier';
import type {
  KeyResolver,
  VerifiableRequest,
  VerifyOptions,
  VerifyResult,
} from '../../../../../src/plugins/activitypub/signatures/HttpSignatureVerifier';
import { SignatureCheck } from '../../../../../src/plugins/activitypub/signatures/SignatureCheck';
import { ACTOR, KEY_ID, NOW, resolverFor, rsa, signedRequest, withHeader } from './signing-fixtures';

const cavage = new CavageSignatureVerifier(new DigestVerifier());

async function verify(request: VerifiableRequest, resolveKey: KeyResolver, options: VerifyOptions = {}): Promise<VerifyResult> {
  return cavage.verify(request, new URL(request.url), new SignatureCheck(resolveKey, options));
}

interface SignatureParams {
  keyId?: string;
  created?: number;
  expires?: number;
}

/** A POST to the inbox, signed again over `names` with the Signature parameters given. */
function resign(names: string, extra: Record<string, string> = {}, algorithm = 'rsa-sha256', params: SignatureParams = {}): VerifiableRequest {
  const request = signedRequest('cavage');
  const headers = { ...request.headers, ...extra } as Record<string, string>;
  const lines = names.split(' ').map((name) => {
    switch (name) {
      case '(request-target)':
        return `${name}: post /users/bob/inbox`;
      case '(created)':
        return `${name}: ${params.created}`;
      case '(expires)':
        return `${name}: ${params.expires}`;
      default:
        return `${name}: ${headers[name]}`;
    }
  });
  const signature = cryptoSign('sha256', Buffer.from(lines.join('\n')), rsa.privateKey).toString('base64');
  const times = `${params.created === undefined ? '' : `,created=${params.created}`}${params.expires === undefined ? '' : `,expires=${params.expires}`}`;
  headers.signature = `keyId="${params.keyId ?? KEY_ID}",algorithm="${algorithm}"${times},headers="${names}",signature="${signature}"`;
  return { ...request, headers };
}

describe('CavageSignatureVerifier', () => {
  it('verifies what HttpSigner signed, as cavage', async () => {
    await expect(verify(signedRequest('cavage'), resolverFor(rsa.publicKey), { now: NOW }))
      .resolves.toEqual({ ok: true, keyId: KEY_ID, owner: ACTOR, scheme: 'cavage' });
  });

  it('accepts hs2019 and no algorithm with an RSA key', async () => {
    for (const algorithm of [ 'hs2019', 'rsa-sha256' ]) {
      const request = resign('(request-target) host date digest', {}, algorithm);
      await expect(verify(request, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
    }
    const request = resign('(request-target) host date digest');
    request.headers = { ...request.headers, signature: (request.headers.signature as string).replace('algorithm="rsa-sha256",', '') };
    await expect(verify(request, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
  });

  it('accepts extra signed headers', async () => {
    const request = resign('(request-target) host date digest content-type');
    await expect(verify(request, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
  });

  it('refuses other algorithms', async () => {
    const request = resign('(request-target) host date digest', {}, 'rsa-sha1');
    await expect(verify(request, resolverFor(rsa.publicKey), { now: NOW }))
      .resolves.toMatchObject({ ok: false, reason: 'unsupported signature algorithm rsa-sha1' });
  });

  it.each([
    [ 'host date digest', '(request-target) is not signed' ],
    [ '(request-target) date digest', 'host is not signed' ],
    [ '(request-target) host date', 'digest is not signed' ],
    [ '(request-target) host digest', 'neither date nor (created) is signed' ],
  ])('refuses a POST signed over "%s"', async (names, reason) => {
    const result = await verify(resign(names), resolverFor(rsa.publicKey), { now: NOW });
    expect(result).toEqual({ ok: false, reason, keyId: KEY_ID });
  });

  it('refuses a Digest that is not SHA-256/512, and a missing Date', async () => {
    const md5 = resign('(request-target) host date digest', { digest: 'MD5=1B2M2Y8AsgTpgAEPq9N3Tw==' });
    await expect(verify(md5, resolverFor(rsa.publicKey), { now: NOW }))
      .resolves.toMatchObject({ ok: false, reason: 'Digest has no SHA-256' });
    const noDate = withHeader(signedRequest('cavage'), 'date', undefined);
    await expect(verify(noDate, resolverFor(rsa.publicKey), { now: NOW }))
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
    await expect(verify(request, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
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
    const result = await verify(request, resolverFor(rsa.publicKey), { now: NOW });
    expect(result.ok).toBe(false);
  });

  it('parses Signature parameters with commas in quoted values and numbers', () => {
    expect(parseCavageParams('keyId="https://a/b,c", created=1700000000,Signature="x=="')).toEqual(new Map([
      [ 'keyid', 'https://a/b,c' ],
      [ 'created', '1700000000' ],
      [ 'signature', 'x==' ],
    ]));
  });

  it('accepts a keyId with spaces and commas, as some servers send', async () => {
    const keyId = 'https://remote.example/users/alice#main key, the old one';
    const request = resign('(request-target) host date digest', {}, 'rsa-sha256', { keyId });
    const resolveKey = jest.fn(async (id: string) => (id === keyId ? { publicKey: rsa.publicKey, owner: ACTOR } : undefined));
    await expect(verify(request, resolveKey, { now: NOW })).resolves.toMatchObject({ ok: true, keyId });
    expect(parseCavageParams(' keyId = "a b" ,  headers="date"')).toEqual(new Map([ [ 'keyid', 'a b' ], [ 'headers', 'date' ] ]));
  });

  it('accepts (created) in place of date and honours expires', async () => {
    const created = NOW / 1000 - 60;
    const names = '(request-target) host (created) (expires) digest';
    const fresh = resign(names, {}, 'hs2019', { created, expires: NOW / 1000 + 60 });
    await expect(verify(fresh, resolverFor(rsa.publicKey), { now: NOW })).resolves.toMatchObject({ ok: true });
    const expired = resign(names, {}, 'hs2019', { created, expires: NOW / 1000 - 1 });
    await expect(verify(expired, resolverFor(rsa.publicKey), { now: NOW }))
      .resolves.toEqual({ ok: false, reason: 'signature expired (expires)', keyId: KEY_ID });
    const old = resign(names, {}, 'hs2019', { created: NOW / 1000 - 13 * 3_600, expires: NOW / 1000 + 60 });
    await expect(verify(old, resolverFor(rsa.publicKey), { now: NOW }))
      .resolves.toEqual({ ok: false, reason: 'signature expired (created too old)', keyId: KEY_ID });
  });

  it('refuses a header signed twice and a signed header that is absent', async () => {
    await expect(verify(resign('(request-target) host date date digest'), resolverFor(rsa.publicKey), { now: NOW }))
      .resolves.toEqual({ ok: false, reason: 'a header is signed twice', keyId: KEY_ID });
    await expect(verify(resign('(request-target) host date digest x-absent'), resolverFor(rsa.publicKey), { now: NOW }))
      .resolves.toEqual({ ok: false, reason: 'signed header x-absent is missing', keyId: KEY_ID });
  });
});
