import { CsrfTokens } from '../../../../src/handlers/http/CsrfTokens';

describe('CsrfTokens', (): void => {
  it('accepts the session\'s value for the form only', (): void => {
    const value = CsrfTokens.tokenFor('session-a', 'account-delete');
    expect((): void => CsrfTokens.check('session-a', 'account-delete', value)).not.toThrow();
    for (const [ session, form, given ] of [
      [ 'session-b', 'account-delete', value ],
      [ 'session-a', 'other-form', value ],
      [ 'session-a', 'account-delete', undefined ],
      [ 'session-a', 'account-delete', `${value}x` ],
    ] as const) {
      expect((): void => CsrfTokens.check(session, form, given)).toThrow(expect.objectContaining({ statusCode: 403, errorCode: 'invalid_form' }));
    }
  });
});
