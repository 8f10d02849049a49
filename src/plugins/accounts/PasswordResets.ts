import { randomBytes } from 'node:crypto';
import { getLoggerFor } from '@solid/community-server';
import { badRequest, FedpodHttpError, notFound } from '../../util/HttpErrors';
import { messageOf } from '../../util/Errors';
import type { AccountStore } from './AccountStore';
import type { Mailer } from './Mailer';
import { digestOf, matchesDigest } from './OneTimeTokens';
import type { PasswordHasher } from './PasswordHasher';
import { validatePassword } from './SignupValidator';

/** How long a reset link works. */
const RESET_MS = 3600 * 1000;

/**
 * Password resets by a mailed one-time link (with `--smtp-url`). A request names an email or a
 * username and is answered the same whether or not such an account exists; the mail goes out after
 * the answer, so neither its outcome nor its time tells. Only the token's digest is stored (in the
 * account record); the link works once, for an hour, and setting the password through it revokes
 * every token issued before, as a password change does. Without SMTP nothing is sent: the operator's
 * `fedpod accounts reset-password` is the way.
 */
export class PasswordResets {
  protected readonly logger = getLoggerFor(this);
  private readonly base: string;

  public constructor(
    baseUrl: string,
    private readonly accounts: AccountStore,
    private readonly hasher: PasswordHasher,
    private readonly mailer: Mailer,
  ) {
    this.base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  public get enabled(): boolean {
    return this.mailer.enabled;
  }

  /**
   * Starts a reset for the account with this email or username, if there is one. Resolves before the
   * mail is sent. A 404 `password_reset_unavailable` when the server sends no mail.
   */
  public async request(login: unknown): Promise<void> {
    if (!this.enabled) {
      throw notFound('This server sends no mail: ask its operator to reset your password.', 'password_reset_unavailable');
    }
    if (typeof login !== 'string' || login.trim().length === 0 || login.length > 320) {
      throw badRequest('Send your email or username as `login`.', 'invalid_body');
    }
    const name = login.trim().toLowerCase();
    const account = name.includes('@') ? await this.accounts.findByEmail(name) : await this.accounts.findByUsername(name);
    // Accounts still waiting for their email's confirmation have no working password to reset.
    if (!account || account.confirmation) {
      return;
    }
    const token = randomBytes(32).toString('base64url');
    await this.accounts.update({ ...account,
      passwordReset: { digest: digestOf(token), expiresAt: new Date(Date.now() + RESET_MS).toISOString() }});
    const link = `${this.base}auth/password/reset?user=${encodeURIComponent(account.username)}&token=${encodeURIComponent(token)}`;
    this.mailer.send({
      to: account.email,
      subject: `Reset your password on ${new URL(this.base).host}`,
      text: `Someone, probably you, asked to reset the password of ${account.username} on ${this.base}.\n\n` +
        `To choose a new one, open this link (it works once, for an hour):\n${link}\n\n` +
        'If it was not you, ignore this mail: your password stays as it is.\n',
    }).catch((error: unknown): void => {
      this.logger.warn(`The password reset mail to ${account.username} was not sent: ${messageOf(error)}`);
    });
    this.logger.info(`Account ${account.username}: password reset requested`);
  }

  /**
   * Whether the link's user and token are an open reset (the page checks it before showing its form);
   * 400 `invalid_reset` when wrong or used, 410 `reset_expired` when too old.
   */
  public async check(username: unknown, token: unknown): Promise<string> {
    const invalid = (): Error => badRequest('This reset link is not valid (or was used already).', 'invalid_reset');
    if (typeof username !== 'string' || typeof token !== 'string') {
      throw invalid();
    }
    const account = await this.accounts.findByUsername(username.toLowerCase());
    if (!account?.passwordReset || !matchesDigest(token, account.passwordReset.digest)) {
      throw invalid();
    }
    if (Date.parse(account.passwordReset.expiresAt) <= Date.now()) {
      throw new FedpodHttpError(410, 'reset_expired', 'This reset link has expired: ask for a new one.');
    }
    return account.username;
  }

  /** Sets the new password through an open reset: the link is used up and every earlier token revoked. */
  public async complete(username: unknown, token: unknown, newPassword: unknown): Promise<string> {
    const name = await this.check(username, token);
    const password = validatePassword(newPassword, 'newPassword');
    const account = (await this.accounts.findByUsername(name))!;
    const { passwordReset, ...rest } = account;
    void passwordReset;
    await this.accounts.update({ ...rest, passwordHash: await this.hasher.hash(password), credentialsChanged: new Date().toISOString() });
    this.logger.info(`Account ${name}: password reset by mail`);
    return name;
  }
}
