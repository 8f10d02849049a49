import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { getLoggerFor } from '@solid/community-server';
import { documentMetadata, type ResourceGraphs } from '../../storage/ResourceGraphs';
import { badRequest, conflict, FedpodHttpError, forbidden, notFound, unauthorized } from '../../util/HttpErrors';
import { actorDocument } from '../activitypub/ActorDocument';
import { ActorUrls } from '../activitypub/ActorUrls';
import type { ActorKeyStore } from '../activitypub/ActorKeyStore';
import type { UserStorage } from '../ldp/UserStorage';
import type { JsonLdParser } from '../ldp/JsonLdParser';
import type { Account } from './Account';
import type { AccountStore } from './AccountStore';
import type { OidcIssuer } from './OidcIssuer';
import type { PasswordHasher } from './PasswordHasher';
import { hasControlCharacter, validatePassword, validateSignup } from './SignupValidator';
import type { TokenService } from './TokenService';
import type { Registrations } from './Registrations';
import type { Mail, Mailer } from './Mailer';
import type { LoginPolicy } from './LoginPolicy';
import { digestOf, matchesDigest } from './OneTimeTokens';
import { errnoOf, messageOf } from '../../util/Errors';

export interface Session {
  token: string;
  webId: string;
  pending?: undefined;
}

/** A signup whose account may not log in yet: no token; it waits for its email's confirmation, an operator's approval or both. */
export interface PendingSignup {
  webId: string;
  pending: true;
  waitsFor: ('email' | 'approval')[];
  token?: undefined;
}

/** What AccountService is made of (an options object: more than six parts). */
export interface AccountServiceOptions {
  /** Public base URL. */
  baseUrl: string;
  /** Data directory (signup locks). */
  dataDir: string;
  accounts: AccountStore;
  hasher: PasswordHasher;
  tokens: TokenService;
  keys: ActorKeyStore;
  store: ResourceGraphs;
  parser: JsonLdParser;
  /** A storage container per user, made at signup (the WebACL setup). */
  storage?: UserStorage;
  /** The Solid-OIDC issuer named in each WebID (`solid:oidcIssuer`), when the setup has the OpenID provider. */
  oidcIssuer?: OidcIssuer;
  /** Who may sign up (`--registrations`); none: anyone. */
  registrations?: Registrations;
  /** Sends the email confirmation links (with `--smtp-url`); none or off: no confirmation. */
  mailer?: Mailer;
  /** The operator's measures on accounts: a suspended or disabled account cannot log in. */
  moderation?: LoginPolicy;
}

/** The one answer to a failed login, whichever part was wrong. */
const wrongCredentials = (): Error => unauthorized('Wrong username, email or password.', 'invalid_credentials');

/** A well-formed hash no password matches, checked when the account does not exist. */
const UNKNOWN_ACCOUNT_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** How long an email confirmation link works. */
const CONFIRMATION_MS = 24 * 3600 * 1000;

/** The mail with an account's confirmation link. */
function confirmationMail(base: string, username: string, email: string, token: string): Mail {
  const link = `${base}auth/confirm?user=${encodeURIComponent(username)}&token=${encodeURIComponent(token)}`;
  return {
    to: email,
    subject: `Confirm your account on ${new URL(base).host}`,
    text: `Someone, probably you, signed up as ${username} on ${base} with this address.\n\n` +
      `To confirm it, open this link (it works once, for 24 hours):\n${link}\n\n` +
      'If it was not you, ignore this mail: the account will not be usable.\n',
  };
}

/** A signup lock older than this was left by a crashed process and may be taken over. */
const STALE_LOCK_MS = 60_000;

/**
 * Signup and login. A signup writes, in order: the actor's key files, the actor document in
 * /actors/, and last the account record, which is the commit point: a signup that fails at any
 * step removes what it wrote, and one interrupted by a crash leaves no account, so the name stays
 * free and the leftovers are cleared by the next signup for it. Concurrent signups for one name are
 * serialised by a lock file, so this holds across processes sharing the data directory.
 */
export class AccountService {
  protected readonly logger = getLoggerFor(this);
  private readonly urls: ActorUrls;
  private readonly locks: string;

  private readonly accounts: AccountStore;
  private readonly hasher: PasswordHasher;
  private readonly tokens: TokenService;
  private readonly keys: ActorKeyStore;
  private readonly store: ResourceGraphs;
  private readonly parser: JsonLdParser;
  private readonly storage?: UserStorage;
  private readonly oidcIssuer?: string;
  private readonly registrations?: Registrations;
  private readonly mailer?: Mailer;
  private readonly moderation?: LoginPolicy;
  private readonly base: string;

  public constructor(options: AccountServiceOptions) {
    this.urls = new ActorUrls(options.baseUrl);
    this.locks = path.join(options.dataDir, 'accounts', 'locks');
    this.accounts = options.accounts;
    this.hasher = options.hasher;
    this.tokens = options.tokens;
    this.keys = options.keys;
    this.store = options.store;
    this.parser = options.parser;
    this.storage = options.storage;
    this.oidcIssuer = options.oidcIssuer?.url;
    this.registrations = options.registrations;
    this.mailer = options.mailer;
    this.moderation = options.moderation;
    this.base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  }

  public async signup(body: unknown): Promise<Session | PendingSignup> {
    const input = validateSignup(body);
    if (this.registrations?.mode === 'closed') {
      // Before anything else: a closed server says nothing about which names are taken.
      await this.registrations.admit({});
    }
    await this.assertFree(input.username, input.email);
    const passwordHash = await this.hasher.hash(input.password);
    const webId = this.urls.actor(input.username);
    let pending = false;
    // With mail: a one-time token for the confirmation link; only its digest is stored.
    const confirmToken = this.mailer?.enabled ? randomBytes(32).toString('base64url') : undefined;
    await this.withSignupLock(input.username, async(): Promise<void> => {
      await this.assertFree(input.username, input.email);
      const admission = await this.registrations?.admit(body as Record<string, unknown>);
      pending = admission?.status === 'pending';
      let created = false;
      // Leftovers of a signup for this name that crashed before its commit point.
      await this.keys.remove(input.username);
      await this.store.delete(webId, this.urls.url('actors'));
      const now = new Date();
      try {
        const { publicKeyPem } = await this.keys.create(input.username);
        const document = actorDocument(this.urls, input.username, publicKeyPem, now.toISOString(),
          { storage: this.storage?.storageOf(input.username), oidcIssuer: this.oidcIssuer });
        const data = await this.parser.toQuads(document, webId);
        await this.store.createInContainer(this.urls.url('actors'), webId, data, documentMetadata(webId, now), now);
        await this.storage?.create(input.username, webId);
        const result = await this.accounts.create({ username: input.username, email: input.email, webId, passwordHash,
          created: now.toISOString(), ...admission?.status ? { status: admission.status } : {},
          ...admission?.reason ? { reason: admission.reason } : {}, ...admission?.invite ? { invite: admission.invite } : {},
          ...confirmToken ? { confirmation: { digest: digestOf(confirmToken), expiresAt: new Date(now.getTime() + CONFIRMATION_MS).toISOString() }} : {}});
        if (!result.created) {
          throw conflict(`That ${result.taken} is taken.`, `${result.taken}_taken`);
        }
        created = true;
        if (confirmToken) {
          // Before the answer: a link that could not be sent leaves no account that can never be confirmed.
          await this.mailer!.send(confirmationMail(this.base, input.username, input.email, confirmToken));
        }
      } catch (error: unknown) {
        await admission?.release();
        if (created) {
          await this.accounts.remove(input.username);
        }
        await this.undo(input.username, webId);
        throw error;
      }
    });
    if (pending || confirmToken) {
      const waitsFor: PendingSignup['waitsFor'] = [ ...confirmToken ? [ 'email' as const ] : [], ...pending ? [ 'approval' as const ] : [] ];
      this.logger.info(`New account ${input.username}, waiting for ${waitsFor.join(' and ')}`);
      return { webId, pending: true, waitsFor };
    }
    this.logger.info(`New account ${input.username}`);
    return { token: await this.tokens.issue({ webId, username: input.username }), webId };
  }

  /**
   * Confirms an account's email with the token of its confirmation link: it may log in from now
   * (once approved, where that is needed). 400 for a wrong token or an account with nothing to
   * confirm, 410 for an expired one; the token works once.
   */
  public async confirmEmail(username: unknown, token: unknown): Promise<Account> {
    const invalid = (): Error => badRequest('This confirmation link is not valid (or was used already).', 'invalid_confirmation');
    if (typeof username !== 'string' || typeof token !== 'string') {
      throw invalid();
    }
    const account = await this.accounts.findByUsername(username.toLowerCase());
    if (!account?.confirmation || !matchesDigest(token, account.confirmation.digest)) {
      throw invalid();
    }
    if (Date.parse(account.confirmation.expiresAt) <= Date.now()) {
      throw new FedpodHttpError(410, 'confirmation_expired', 'This confirmation link has expired.');
    }
    const { confirmation, ...confirmed } = account;
    void confirmation;
    await this.accounts.update(confirmed);
    this.logger.info(`Account ${account.username} confirmed its email`);
    return confirmed;
  }

  /**
   * Changes a user's password: the current one is required (a wrong one changes nothing: 403
   * `wrong_password`). Every token issued before (Fedpod's, Mastodon apps') is revoked; the answer
   * is a new token for the session that made the change.
   */
  public async changePassword(username: string, body: unknown): Promise<Session> {
    const { currentPassword, newPassword } = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    if (typeof currentPassword !== 'string') {
      throw badRequest('Send currentPassword and newPassword as strings.', 'invalid_body');
    }
    const password = validatePassword(newPassword, 'newPassword');
    const account = await this.accounts.findByUsername(username);
    if (!account || hasControlCharacter(currentPassword) || !await this.hasher.verify(currentPassword, account.passwordHash)) {
      throw forbidden('The current password is wrong.', 'wrong_password');
    }
    await this.setPassword(account, password);
    this.logger.info(`Account ${username} changed its password`);
    return { token: await this.tokens.issue({ webId: account.webId, username }), webId: account.webId };
  }

  /** The operator's reset: a new random password (returned once), every token of the account revoked. */
  public async resetPassword(username: string): Promise<{ account: Account; password: string }> {
    const account = await this.accounts.findByUsername(username.toLowerCase());
    if (!account) {
      throw notFound(`No account ${username}.`, 'not_found');
    }
    const password = randomBytes(18).toString('base64url');
    await this.setPassword(account, password);
    this.logger.info(`Account ${username}: password reset by the operator`);
    return { account, password };
  }

  private async setPassword(account: Account, password: string): Promise<void> {
    const passwordHash = await this.hasher.hash(password);
    // Tokens issued from this millisecond on are valid (the new session's), those before are not.
    await this.accounts.update({ ...account, passwordHash, credentialsChanged: new Date().toISOString() });
  }

  /** Who may sign up: open, approval, invite or closed. */
  public get registrationMode(): string {
    return this.registrations?.mode ?? 'open';
  }

  /** The accounts awaiting approval, oldest first. */
  public async pending(): Promise<Account[]> {
    const accounts: Account[] = [];
    for (const username of await this.accounts.list()) {
      const account = await this.accounts.findByUsername(username);
      if (account?.status === 'pending') {
        accounts.push(account);
      }
    }
    return accounts.sort((left, right): number => left.created.localeCompare(right.created));
  }

  /** Lets a pending account log in; a 404 when no account of that name awaits approval. */
  public async approve(username: string): Promise<Account> {
    const account = await this.pendingAccount(username);
    const { status, ...approved } = account;
    void status;
    await this.accounts.update(approved);
    this.logger.info(`Account ${username} approved`);
    return approved;
  }

  /** Removes a pending account and what its signup made; its name and email are free again. */
  public async reject(username: string): Promise<Account> {
    const account = await this.pendingAccount(username);
    await this.undo(username, account.webId);
    await this.accounts.remove(username);
    this.logger.info(`Account ${username} rejected`);
    return account;
  }

  private async pendingAccount(username: string): Promise<Account> {
    const account = await this.accounts.findByUsername(username.toLowerCase());
    if (account?.status !== 'pending') {
      throw notFound(`No account ${username} awaits approval.`, 'not_pending');
    }
    return account;
  }

  public async login(body: unknown): Promise<Session> {
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('The body must be a JSON object with username (or email) and password.', 'invalid_body');
    }
    const { username, email, password } = body as Record<string, unknown>;
    if (typeof password !== 'string' || (typeof username !== 'string' && typeof email !== 'string')) {
      throw badRequest('Send username (or email) and password as strings.', 'invalid_body');
    }
    const account = typeof username === 'string' ?
      await this.authenticate({ username }, password) :
      await this.authenticate({ email: email as string }, password);
    return { token: await this.tokens.issue({ webId: account.webId, username: account.username }), webId: account.webId };
  }

  /**
   * The account with this username (or email) and password; a 401 otherwise. Used by the JSON login
   * and by the Solid-OIDC login page, so one password serves both.
   */
  public async authenticate(login: { username: string } | { email: string }, password: string): Promise<Account> {
    if (hasControlCharacter(password)) {
      // No password holds one (signup refuses them): wrong, as a wrong password is, without hashing.
      throw wrongCredentials();
    }
    const account = 'username' in login ?
      await this.accounts.findByUsername(login.username.toLowerCase()) :
      await this.accounts.findByEmail(login.email.toLowerCase());
    // Hash even when there is no such account, so timing says nothing about which field was wrong.
    const valid = await this.hasher.verify(password, account?.passwordHash ?? UNKNOWN_ACCOUNT_HASH);
    if (!account || !valid) {
      throw wrongCredentials();
    }
    // Only to whoever knows the password: that the account exists and waits.
    if (account.confirmation) {
      throw forbidden('This account\'s email is not confirmed yet: follow the link sent to it.', 'email_unconfirmed');
    }
    if (account.status === 'pending') {
      throw forbidden('This account awaits an operator\'s approval.', 'account_pending');
    }
    if (await this.moderation?.isLocked(this.urls.actor(account.username))) {
      throw forbidden('This account is suspended.', 'account_suspended');
    }
    return account;
  }

  private async assertFree(username: string, email: string): Promise<void> {
    if (await this.accounts.findByUsername(username)) {
      throw conflict('That username is taken.', 'username_taken');
    }
    if (await this.accounts.findByEmail(email)) {
      throw conflict('That email is taken.', 'email_taken');
    }
  }

  private async undo(username: string, webId: string): Promise<void> {
    try {
      await this.keys.remove(username);
      await this.store.delete(webId, this.urls.url('actors'));
      await this.storage?.remove(username);
    } catch (error: unknown) {
      this.logger.error(`Could not undo the failed signup of ${username}: ${messageOf(error)}`);
    }
  }

  private async withSignupLock(username: string, work: () => Promise<void>): Promise<void> {
    await fs.mkdir(this.locks, { recursive: true, mode: 0o700 });
    const lock = path.join(this.locks, username);
    try {
      await fs.writeFile(lock, String(process.pid), { flag: 'wx' });
    } catch (error: unknown) {
      if (errnoOf(error) !== 'EEXIST') {
        throw error;
      }
      const age = Date.now() - (await fs.stat(lock)).mtimeMs;
      if (age < STALE_LOCK_MS) {
        throw conflict('A signup for that username is in progress.', 'username_taken');
      }
      await fs.writeFile(lock, String(process.pid));
    }
    try {
      await work();
    } finally {
      await fs.rm(lock, { force: true });
    }
  }
}
