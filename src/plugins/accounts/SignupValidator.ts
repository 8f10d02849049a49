import { badRequest } from '../../util/HttpErrors';

export interface SignupInput {
  username: string;
  email: string;
  password: string;
}

const USERNAME = /^[a-z0-9_][a-z0-9._-]{0,63}$/u;
// Plausible, not RFC 5322: one @, no spaces, a dot in the domain, sane lengths.
const EMAIL = /^[^\s@"<>()[\]\\,;:]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/iu;
const MIN_PASSWORD = 8;
const MAX_PASSWORD = 1024;

/** Names that would collide with server paths or impersonate the operator. */
export const RESERVED_USERNAMES = [
  'admin', 'administrator', 'root', 'system', 'fedpod', 'support', 'security', 'postmaster', 'abuse',
  'webmaster', 'hostmaster', 'noreply', 'no-reply', 'inbox', 'outbox', 'actors', 'activities', 'objects',
  'notes', 'webhooks', 'auth', 'api', 'sparql', 'well-known', '.well-known', 'context.json', 'healthz',
  'readyz', 'metrics', 'nodeinfo', 'instance', 'followers', 'following', 'liked', 'public', 'null',
];

/** Checks a signup body field by field, with a 400 that names the field and the rule. */
export function validateSignup(body: unknown, reserved: readonly string[] = RESERVED_USERNAMES): SignupInput {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('The body must be a JSON object with username, email and password.', 'invalid_body');
  }
  const { username, email, password } = body as Record<string, unknown>;
  if (typeof username !== 'string' || !USERNAME.test(username)) {
    throw badRequest('username must be 1-64 characters of lowercase letters, digits, "-", "_" and "."' +
      ' (not starting with "." or "-").', 'invalid_username');
  }
  // A name ending in .acl, .meta or .acr would make the actor document an auxiliary resource of another.
  if (reserved.includes(username) || username.endsWith('.') || /\.\./u.test(username) || /\.(?:acl|meta|acr)$/u.test(username)) {
    throw badRequest(`The username "${username}" is reserved.`, 'invalid_username');
  }
  if (typeof email !== 'string' || email.length > 254 || !EMAIL.test(email)) {
    throw badRequest('email must be a plausible e-mail address.', 'invalid_email');
  }
  return { username, email: email.toLowerCase(), password: validatePassword(password) };
}

/** A new password as signup and password changes take it, or a 400 naming the rule (`field` names it). */
export function validatePassword(password: unknown, field = 'password'): string {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD || password.length > MAX_PASSWORD) {
    throw badRequest(`${field} must be a string of ${MIN_PASSWORD} to ${MAX_PASSWORD} characters.`, 'invalid_password');
  }
  if (hasControlCharacter(password)) {
    throw badRequest(`${field} must not contain control characters (U+0000-U+001F, U+007F-U+009F): ` +
      'they cannot be typed reliably, and a NUL is cut off by some clients and libraries.', 'invalid_password');
  }
  return password;
}

/**
 * Whether a text holds a control character: C0 (U+0000-U+001F), DEL (U+007F) or C1 (U+0080-U+009F).
 * No password may hold one; a login with one fails before its hash is computed.
 */
export function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7F && code <= 0x9F)) {
      return true;
    }
  }
  return false;
}
