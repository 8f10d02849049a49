import { hasControlCharacter, RESERVED_USERNAMES, validateSignup } from '../../../../src/plugins/accounts/SignupValidator';
import { FedpodHttpError } from '../../../../src/util/HttpErrors';

const VALID = { username: 'alice', email: 'alice@example.org', password: 'correct horse' };

/** The FedpodHttpError validateSignup throws for `body`. */
function refusal(body: unknown, reserved?: readonly string[]): FedpodHttpError {
  try {
    validateSignup(body, reserved);
  } catch (error: unknown) {
    expect(error).toBeInstanceOf(FedpodHttpError);
    return error as FedpodHttpError;
  }
  throw new Error(`Expected ${JSON.stringify(body)} to be refused.`);
}

function expectRefused(body: unknown, code: string): void {
  const error = refusal(body);
  expect(error.statusCode).toBe(400);
  expect(error.errorCode).toBe(code);
}

describe('validateSignup', (): void => {
  it('returns valid input with the email lowercased and nothing else', (): void => {
    expect(validateSignup({ ...VALID, email: 'Alice.Smith@Example.ORG', admin: true, webId: 'x' }))
      .toEqual({ username: 'alice', email: 'alice.smith@example.org', password: 'correct horse' });
  });

  it('keeps the password as given (no trimming, no case change)', (): void => {
    expect(validateSignup({ ...VALID, password: '  PassWord  ' }).password).toBe('  PassWord  ');
  });

  describe('body', (): void => {
    it.each([
      [ 'null', null ],
      [ 'undefined', undefined ],
      [ 'a string', '{"username":"alice"}' ],
      [ 'a number', 42 ],
      [ 'a boolean', true ],
      [ 'an array', [ VALID ]],
    ])('refuses %s with invalid_body', (_, body): void => {
      expectRefused(body, 'invalid_body');
    });

    it('refuses an empty object for its username first', (): void => {
      expectRefused({}, 'invalid_username');
    });
  });

  describe('username', (): void => {
    it.each([
      [ 'a' ],
      [ '0' ],
      [ '_' ],
      [ 'alice_smith' ],
      [ 'alice-smith' ],
      [ 'alice.smith' ],
      [ 'a.b.c-d_e9' ],
      [ '_alice' ],
      [ '42' ],
      [ 'a'.repeat(64) ],
      [ 'admins' ],
      [ 'rooted' ],
    ])('accepts %j', (username): void => {
      expect(validateSignup({ ...VALID, username }).username).toBe(username);
    });

    it.each([
      [ 'empty', '' ],
      [ '65 characters', 'a'.repeat(65) ],
      [ 'uppercase', 'Alice' ],
      [ 'a space', 'alice smith' ],
      [ 'an @', 'alice@pod' ],
      [ 'a slash', 'alice/bob' ],
      [ 'a backslash', 'alice\\bob' ],
      [ 'a non-ASCII letter', 'alicé' ],
      [ 'a plus', 'alice+1' ],
      [ 'a percent', 'alice%2e' ],
      [ 'a leading "."', '.alice' ],
      [ 'a leading "-"', '-alice' ],
      [ 'only "."', '.' ],
      [ 'a newline at the end', 'alice\n' ],
      [ 'a number', 42 ],
      [ 'missing', undefined ],
    ])('refuses a username with %s', (_, username): void => {
      expectRefused({ ...VALID, username }, 'invalid_username');
    });

    it.each([
      [ 'a trailing "."', 'alice.' ],
      [ '".."', 'alice..smith' ],
      [ '".." at the end', 'alice..' ],
    ])('refuses a username with %s', (_, username): void => {
      expectRefused({ ...VALID, username }, 'invalid_username');
    });

    it.each(RESERVED_USERNAMES.map((name): [string] => [ name ]))('refuses the reserved name %j', (username): void => {
      expectRefused({ ...VALID, username }, 'invalid_username');
    });

    it('reserves the documented server and operator names', (): void => {
      expect(RESERVED_USERNAMES).toEqual(expect.arrayContaining([ 'admin', 'root', 'inbox', 'outbox', 'actors',
        'sparql', 'auth', 'webhooks', '.well-known', 'nodeinfo', 'followers', 'following', 'liked', 'public' ]));
    });

    it('uses the reserved list it is given instead of the default', (): void => {
      const error = refusal({ ...VALID, username: 'alice' }, [ 'alice' ]);
      expect(error.statusCode).toBe(400);
      expect(error.errorCode).toBe('invalid_username');
      expect(validateSignup({ ...VALID, username: 'admin' }, [])).toEqual(expect.objectContaining({ username: 'admin' }));
    });

    it('checks the username before the email and the password', (): void => {
      expectRefused({ username: 'Bad', email: 'bad', password: 'x' }, 'invalid_username');
    });
  });

  describe('email', (): void => {
    // 64 + 1 + (63 + 1 + 63 + 1 + n + 4) characters.
    const local = 'l'.repeat(64);
    const ofLength = (length: number): string =>
      `${local}@${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(length - 64 - 1 - 128 - 4)}.com`;

    it.each([
      [ 'a@b.co' ],
      [ 'first.last+tag@example.org' ],
      [ 'x@sub.domain-with-dash.example' ],
      [ 'o\'brien@example.ie' ],
      [ `${'l'.repeat(64)}@example.org` ],
      [ ofLength(254) ],
    ])('accepts %j', (email): void => {
      expect(validateSignup({ ...VALID, email }).email).toBe(email.toLowerCase());
    });

    it.each([
      [ 'empty', '' ],
      [ 'no @', 'alice.example.org' ],
      [ 'two @', 'alice@bob@example.org' ],
      [ 'no dot in the domain', 'alice@localhost' ],
      [ 'an empty local part', '@example.org' ],
      [ 'a space', 'alice smith@example.org' ],
      [ 'a trailing space', 'alice@example.org ' ],
      [ 'a quoted local part', '"alice"@example.org' ],
      [ 'angle brackets', '<alice@example.org>' ],
      [ 'a comma', 'alice,bob@example.org' ],
      [ 'a local part of 65 characters', `${'l'.repeat(65)}@example.org` ],
      [ 'a domain label starting with "-"', 'alice@-example.org' ],
      [ 'a domain label ending with "-"', 'alice@example-.org' ],
      [ 'an empty domain label', 'alice@example..org' ],
      [ 'a trailing dot', 'alice@example.org.' ],
      [ 'a domain label of 64 characters', `alice@${'d'.repeat(64)}.org` ],
      [ 'an underscore in the domain', 'alice@ex_ample.org' ],
      [ '255 characters', ofLength(255) ],
      [ 'a number', 42 ],
      [ 'missing', undefined ],
    ])('refuses an email with %s', (_, email): void => {
      expectRefused({ ...VALID, email }, 'invalid_email');
    });

    it('checks the email before the password', (): void => {
      expectRefused({ ...VALID, email: 'bad', password: 'x' }, 'invalid_email');
    });
  });

  describe('password', (): void => {
    it.each([
      [ '8 characters', '12345678' ],
      [ '1024 characters', 'p'.repeat(1024) ],
      [ 'spaces and symbols', 'p@ss w0rd !' ],
      [ 'non-ASCII', 'pässwörd-ünïcode' ],
      [ 'U+00A0 and U+00FF, just past the C1 controls', 'pass\u00A0word\u00FF' ],
    ])('accepts %s', (_, password): void => {
      expect(validateSignup({ ...VALID, password }).password).toBe(password);
    });

    it.each([
      [ 'empty', '' ],
      [ '7 characters', '1234567' ],
      [ '1025 characters', 'p'.repeat(1025) ],
      [ 'a number', 12345678 ],
      [ 'an array', [ 'correct horse' ]],
      [ 'missing', undefined ],
    ])('refuses a password that is %s', (_, password): void => {
      expectRefused({ ...VALID, password }, 'invalid_password');
    });

    it.each([
      [ 'a trailing NUL', 'correct horse\u0000' ],
      [ 'a tab', 'correct\thorse' ],
      [ 'a newline', 'correct horse\n' ],
      [ 'U+001F', 'correct\u001Fhorse' ],
      [ 'DEL', 'correct\u007Fhorse' ],
      [ 'U+0080 (C1)', 'correct\u0080horse' ],
      [ 'U+009F (C1)', 'correct\u009Fhorse' ],
    ])('refuses a password holding %s, saying why', (_, password): void => {
      const error = refusal({ ...VALID, password });
      expect(error).toMatchObject({ statusCode: 400, errorCode: 'invalid_password' });
      expect(error.message).toContain('control characters');
    });
  });
});

describe('hasControlCharacter', (): void => {
  it('finds C0, DEL and C1 characters anywhere, and nothing else', (): void => {
    for (const code of [ 0x00, 0x09, 0x1F, 0x7F, 0x80, 0x9F ]) {
      expect(hasControlCharacter(`a${String.fromCharCode(code)}b`)).toBe(true);
    }
    for (const text of [ '', 'plain', ' ~', '\u00A0', 'é', '\u{1F600}' ]) {
      expect(hasControlCharacter(text)).toBe(false);
    }
  });
});

const body = (username: string): Record<string, string> => ({ username, email: 'm@example.org', password: 'password123' });

describe('validateSignup and auxiliary resource names', () => {
  it.each([ 'mallory.acl', 'mallory.meta', 'mallory.acr' ])('refuses %s, which would name an auxiliary resource of another actor', (name) => {
    expect(() => validateSignup(body(name))).toThrow(expect.objectContaining({ statusCode: 400, errorCode: 'invalid_username' }));
  });

  it.each([ 'mallory.aclx', 'acl', 'meta.data', 'a.metal' ])('still accepts %s', (name) => {
    expect(validateSignup(body(name)).username).toBe(name);
  });
});
