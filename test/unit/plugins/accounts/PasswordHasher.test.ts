import { PasswordHasher } from '../../../../src/plugins/accounts/PasswordHasher';

describe('PasswordHasher', (): void => {
  const hasher = new PasswordHasher();

  it('stores scrypt$N$r$p$salt$hash, never the password', async(): Promise<void> => {
    const stored = await hasher.hash('correct horse battery staple');
    expect(stored).not.toContain('correct horse');
    const parts = stored.split('$');
    expect(parts).toHaveLength(6);
    expect(parts.slice(0, 4)).toEqual([ 'scrypt', '16384', '8', '1' ]);
    expect(Buffer.from(parts[4], 'base64url')).toHaveLength(16);
    expect(Buffer.from(parts[5], 'base64url')).toHaveLength(32);
  });

  it('verifies the right password and refuses others', async(): Promise<void> => {
    const stored = await hasher.hash('correct horse battery staple');
    await expect(hasher.verify('correct horse battery staple', stored)).resolves.toBe(true);
    await expect(hasher.verify('correct horse battery stapl', stored)).resolves.toBe(false);
    await expect(hasher.verify('Correct horse battery staple', stored)).resolves.toBe(false);
    await expect(hasher.verify('correct horse battery staple ', stored)).resolves.toBe(false);
    await expect(hasher.verify('', stored)).resolves.toBe(false);
  });

  it('salts every hash: the same password hashes differently and each verifies', async(): Promise<void> => {
    const [ first, second ] = await Promise.all([ hasher.hash('same password'), hasher.hash('same password') ]);
    expect(first).not.toBe(second);
    expect(first.split('$')[4]).not.toBe(second.split('$')[4]);
    await expect(hasher.verify('same password', first)).resolves.toBe(true);
    await expect(hasher.verify('same password', second)).resolves.toBe(true);
  });

  it('verifies with the parameters stored in the hash, not the current defaults', async(): Promise<void> => {
    const stored = await hasher.hash('pa55word!');
    const [ , , , , salt ] = stored.split('$');
    // A hash made with cheaper parameters (N=1024) under the same salt must not verify as N=16384...
    const cheaper = `scrypt$1024$8$1$${salt}$${stored.split('$')[5]}`;
    await expect(hasher.verify('pa55word!', cheaper)).resolves.toBe(false);
    // ...and a key derived with N=1024 verifies when the hash says N=1024.
    const { scryptSync } = await import('node:crypto');
    const key = scryptSync('pa55word!', Buffer.from(salt, 'base64url'), 32, { N: 1024, r: 8, p: 1 });
    await expect(hasher.verify('pa55word!', `scrypt$1024$8$1$${salt}$${key.toString('base64url')}`)).resolves.toBe(true);
  });

  it('treats passwords that are equal under NFKC as the same password', async(): Promise<void> => {
    // "é" precomposed (U+00E9) and decomposed (e + U+0301).
    const stored = await hasher.hash('caf\u00e9-secret');
    await expect(hasher.verify('cafe\u0301-secret', stored)).resolves.toBe(true);
    // Compatibility forms: fullwidth letters and the "ﬁ" ligature normalise to ASCII under NFKC.
    const ascii = await hasher.hash('fine password');
    await expect(hasher.verify('\ufb01ne password', ascii)).resolves.toBe(true);
    await expect(hasher.verify('\uff46\uff49\uff4e\uff45 password', ascii)).resolves.toBe(true);
    // But different letters are still different.
    await expect(hasher.verify('cafe-secret', stored)).resolves.toBe(false);
  });

  it.each([
    [ 'empty', '' ],
    [ 'another scheme', 'bcrypt$2b$10$abcdefghijklmnopqrstuu' ],
    [ 'a plain password', 'correct horse battery staple' ],
    [ 'no salt', 'scrypt$16384$8$1$$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' ],
    [ 'no hash', 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$' ],
    [ 'too few fields', 'scrypt$16384$8$1' ],
  ])('refuses a malformed stored hash (%s)', async(_, stored): Promise<void> => {
    await expect(hasher.verify('correct horse battery staple', stored)).resolves.toBe(false);
  });

  // BUG: PasswordHasher.verify (src/plugins/accounts/PasswordHasher.ts:34-42) lets node:crypto's scrypt throw on
  // stored parameters it rejects (N not a number or not a power of two, N > 2^32, memory above maxmem), so a
  // corrupt or hand-edited account makes login reject with a 500 instead of answering "wrong password".
  it.each([
    [ 'N not a number', 'scrypt$abc$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' ],
    [ 'N not a power of two', 'scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' ],
    [ 'N beyond 2^32', 'scrypt$1099511627776$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' ],
  ])('resolves false, rather than throwing, for unusable stored parameters (%s)', async(_, stored): Promise<void> => {
    await expect(hasher.verify('correct horse battery staple', stored)).resolves.toBe(false);
  });

  // BUG (fails open): when the stored hash field decodes to zero bytes ('!!!!', '====', a single base64url
  // character...), PasswordHasher.verify (src/plugins/accounts/PasswordHasher.ts:38-42) derives a 0-byte key and
  // timingSafeEqual of two empty buffers is true: ANY password verifies against such a stored hash.
  it.each([
    [ 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$!!!!' ],
    [ 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$====' ],
    [ 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$A' ],
  ])('refuses every password against a stored hash with an empty key (%s)', async(stored): Promise<void> => {
    await expect(hasher.verify('any password at all', stored)).resolves.toBe(false);
  });
});
