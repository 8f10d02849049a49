import { sign as cryptoSign } from 'node:crypto';
import type { KeyResolver } from '../../../../../src/plugins/activitypub/signatures/HttpSignatureVerifier';
import { SignatureCheck, type SignatureCandidate } from '../../../../../src/plugins/activitypub/signatures/SignatureCheck';
import { ACTOR, ed, KEY_ID, NOW, otherRsa, resolverFor, rsa } from './signing-fixtures';

const MESSAGE = Buffer.from('"@method": POST');

function candidate(overrides: Partial<SignatureCandidate> = {}): SignatureCandidate {
  return {
    keyId: KEY_ID,
    messages: [ MESSAGE ],
    signature: cryptoSign('sha256', MESSAGE, rsa.privateKey),
    ecdsaDer: false,
    scheme: 'rfc9421',
    ...overrides,
  };
}

describe('SignatureCheck', () => {
  describe('time window', () => {
    const check = new SignatureCheck(resolverFor(rsa.publicKey), { now: NOW });

    it('accepts up to 12 hours old and 1 hour ahead by default', () => {
      expect(check.timeRefusal('created', NOW - 12 * 3_600_000)).toBeUndefined();
      expect(check.timeRefusal('created', NOW + 3_600_000)).toBeUndefined();
      expect(check.timeRefusal('created', NOW - 12 * 3_600_000 - 1)).toBe('signature expired (created too old)');
      expect(check.timeRefusal('Date', NOW + 3_600_001)).toBe('Date is in the future');
    });

    it('takes the window and the time from the options', () => {
      const narrow = new SignatureCheck(resolverFor(rsa.publicKey), { now: new Date(NOW), maxAgeMs: 60_000, skewMs: 1_000 });
      expect(narrow.timeRefusal('Date', NOW - 60_001)).toBe('signature expired (Date too old)');
      expect(narrow.timeRefusal('Date', NOW + 1_001)).toBe('Date is in the future');
      expect(narrow.timeRefusal('Date', NOW)).toBeUndefined();
    });

    it('refuses what expired before now', () => {
      expect(check.expiryRefusal(NOW - 1)).toBe('signature expired (expires)');
      expect(check.expiryRefusal(NOW)).toBeUndefined();
    });
  });

  describe('verify', () => {
    it('looks the key up once and names its owner', async () => {
      const resolveKey = resolverFor(rsa.publicKey);
      await expect(new SignatureCheck(resolveKey).verify(candidate()))
        .resolves.toEqual({ ok: true, keyId: KEY_ID, owner: ACTOR, scheme: 'rfc9421' });
      expect(resolveKey.mock.calls).toEqual([ [ KEY_ID ] ]);
    });

    it('tries the next message when the first does not verify', async () => {
      const check = new SignatureCheck(resolverFor(rsa.publicKey));
      await expect(check.verify(candidate({ messages: [ Buffer.from('other'), MESSAGE ] }))).resolves.toMatchObject({ ok: true });
    });

    it('asks once for a fresh key when the signature fails, and uses it', async () => {
      const resolveKey = jest.fn(async (_keyId: string, options?: { refresh?: boolean }) =>
        ({ publicKey: options?.refresh === true ? rsa.publicKey : otherRsa.publicKey, owner: ACTOR })) as KeyResolver & jest.Mock;
      await expect(new SignatureCheck(resolveKey).verify(candidate())).resolves.toMatchObject({ ok: true });
      expect(resolveKey.mock.calls).toEqual([ [ KEY_ID ], [ KEY_ID, { refresh: true } ] ]);
    });

    it('does not refresh when told not to', async () => {
      const resolveKey = resolverFor(otherRsa.publicKey);
      await expect(new SignatureCheck(resolveKey, { refreshKeyOnFailure: false }).verify(candidate()))
        .resolves.toEqual({ ok: false, reason: 'signature does not verify', keyId: KEY_ID });
      expect(resolveKey).toHaveBeenCalledTimes(1);
    });

    it.each([
      [ 'an unknown key', async (): Promise<undefined> => undefined, 'unknown key' ],
      [ 'a key that cannot be fetched', async (): Promise<never> => {
        throw new Error('connection refused');
      }, 'key not available: connection refused' ],
      [ 'a private key', async () => ({ publicKey: rsa.privateKey, owner: ACTOR }), 'the resolved key is not a public key' ],
      [ 'a key of another type', async () => ({ publicKey: ed.publicKey, owner: ACTOR }), 'the key does not fit algorithm rsa-v1_5-sha256' ],
    ] as [string, KeyResolver, string][])('refuses %s', async (_what, resolveKey, reason) => {
      const check = new SignatureCheck(resolveKey, { refreshKeyOnFailure: false });
      await expect(check.verify(candidate({ alg: 'rsa-v1_5-sha256' }))).resolves.toEqual({ ok: false, reason, keyId: KEY_ID });
    });

    it('infers the algorithm from the key when the signature names none', async () => {
      const signature = cryptoSign(null, MESSAGE, ed.privateKey);
      await expect(new SignatureCheck(resolverFor(ed.publicKey)).verify(candidate({ signature }))).resolves.toMatchObject({ ok: true });
      await expect(new SignatureCheck(resolverFor(ed.publicKey), { refreshKeyOnFailure: false })
        .verify(candidate({ signature, alg: 'rsa-v1_5-sha256' })))
        .resolves.toMatchObject({ ok: false, reason: 'the key does not fit algorithm rsa-v1_5-sha256' });
    });
  });
});
