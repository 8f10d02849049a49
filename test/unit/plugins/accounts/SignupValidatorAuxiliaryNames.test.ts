import { validateSignup } from '../../../../src/plugins/accounts/SignupValidator';

const body = (username: string): Record<string, string> => ({ username, email: 'm@example.org', password: 'password123' });

describe('validateSignup and auxiliary resource names', () => {
  it.each([ 'mallory.acl', 'mallory.meta', 'mallory.acr' ])('refuses %s, which would name an auxiliary resource of another actor', (name) => {
    expect(() => validateSignup(body(name))).toThrow(expect.objectContaining({ statusCode: 400, errorCode: 'invalid_username' }));
  });

  it.each([ 'mallory.aclx', 'acl', 'meta.data', 'a.metal' ])('still accepts %s', (name) => {
    expect(validateSignup(body(name)).username).toBe(name);
  });
});
