import { createHmac, timingSafeEqual } from 'node:crypto';
import { FedpodHttpError } from '../../util/HttpErrors';

/**
 * The hidden `csrf` value of a server-rendered form: an HMAC of the session token and the form's
 * name, so only a page of that session can hold it (another site knows neither), and a value taken
 * from one form does not serve another. Nothing is stored; every node computes the same value.
 */
export class CsrfTokens {
  public static tokenFor(session: string, form: string): string {
    return createHmac('sha256', session).update(`fedpod form ${form}`).digest('base64url');
  }

  /** A 403 `invalid_form` unless `given` is this session's value for this form. */
  public static check(session: string, form: string, given: string | null | undefined): void {
    const expected = Buffer.from(CsrfTokens.tokenFor(session, form));
    const actual = Buffer.from(given ?? '');
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
      throw new FedpodHttpError(403, 'invalid_form', 'This form was not sent from your account page: reload it and try again.');
    }
  }
}
