import { createHmac, timingSafeEqual } from 'node:crypto';
import { FedpodHttpError } from '../../util/HttpErrors';

/**
 * The CSRF key of the operator pages' forms: an HMAC of the session token, which only a page of that
 * session can hold (another site can neither read the page nor compute it). The session cookie is
 * SameSite=Strict too; this is the second lock.
 */
export class OperatorFormKey {
  public keyOf(sessionToken: string): string {
    return createHmac('sha256', sessionToken).update('fedpod operator form').digest('base64url');
  }

  /** 403 when the form's `csrf` is not this session's key. */
  public check(sessionToken: string, form: URLSearchParams): void {
    const expected = Buffer.from(this.keyOf(sessionToken));
    const given = Buffer.from(form.get('csrf') ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new FedpodHttpError(403, 'invalid_form', 'This form was not sent from an operator page of your session: reload it and try again.');
    }
  }

  /** The hidden field that carries the key. */
  public field(sessionToken: string): string {
    return `<input type="hidden" name="csrf" value="${this.keyOf(sessionToken)}">`;
  }
}
