import { FormCsrf } from '../../../../src/handlers/auth/FormCsrf';

describe('FormCsrf', (): void => {
  const csrf = new FormCsrf();

  it('derives one token per session, which only that session\'s forms match', (): void => {
    const token = csrf.token('session-a');
    expect(token).toBe(csrf.token('session-a'));
    expect(token).not.toBe(csrf.token('session-b'));
    expect(csrf.matches('session-a', token)).toBe(true);
    expect(csrf.matches('session-b', token)).toBe(false);
    expect(csrf.matches('session-a', `${token}x`)).toBe(false);
    expect(csrf.matches('session-a', undefined)).toBe(false);
    expect(csrf.matches('session-a', '')).toBe(false);
  });

  it('puts the token in a hidden field and refuses any other value with 403', (): void => {
    expect(csrf.field('session-a')).toBe(`<input type="hidden" name="csrf" value="${csrf.token('session-a')}">`);
    expect((): void => csrf.check('session-a', csrf.token('session-a'))).not.toThrow();
    expect((): void => csrf.check('session-a', csrf.token('session-b'))).toThrow(expect.objectContaining({ statusCode: 403, errorCode: 'invalid_form' }));
    expect((): void => csrf.check('session-a', null)).toThrow(expect.objectContaining({ statusCode: 403 }));
  });
});
