import { createHash, timingSafeEqual } from 'node:crypto';
import { escapeHtml } from '../http/Html';
import { forbidden } from '../../util/HttpErrors';

/** The name of the hidden field that carries the token. */
export const CSRF_FIELD = 'csrf';

/**
 * The CSRF token of the forms of a logged-in session's pages: derived from the session's own token
 * (which only that browser's cookie holds), so it is per session, needs no storage, and changes when
 * the session does (a new login, a password change). Another site can neither read it nor guess it.
 * Checked on every POST of those pages, on top of the session cookie's SameSite.
 */
export class FormCsrf {
  /** The token of the session's forms. */
  public token(sessionToken: string): string {
    return createHash('sha256').update(`fedpod form ${sessionToken}`).digest('base64url');
  }

  /** The hidden field to put in each form. */
  public field(sessionToken: string): string {
    return `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(this.token(sessionToken))}">`;
  }

  /** Whether `value` (the form's field) is the session's token. */
  public matches(sessionToken: string, value: string | null | undefined): boolean {
    const expected = Buffer.from(this.token(sessionToken));
    const given = Buffer.from(value ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** Throws 403 `invalid_form` unless `value` is the session's token. */
  public check(sessionToken: string, value: string | null | undefined): void {
    if (!this.matches(sessionToken, value)) {
      throw forbidden('This form was not sent from your account pages: reload the page and try again.', 'invalid_form');
    }
  }
}
