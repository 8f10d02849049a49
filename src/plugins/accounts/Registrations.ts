import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { makeDirectoryDurably, writeFileDurably } from '../../util/DurableFiles';
import { errnoOf } from '../../util/Errors';
import { badRequest, forbidden } from '../../util/HttpErrors';

/** Who may sign up: anyone, anyone with an operator's approval, holders of an invite code, nobody. */
export type RegistrationMode = 'open' | 'approval' | 'invite' | 'closed';

const MODES: readonly RegistrationMode[] = [ 'open', 'approval', 'invite', 'closed' ];

/** An invite code and its limits. */
export interface Invite {
  code: string;
  /** The username that made it, or `operator`. */
  createdBy: string;
  /** ISO date-time. */
  created: string;
  /** How many signups it admits; absent: any number. */
  maxUses?: number;
  /** ISO date-time after which it admits nobody; absent: never. */
  expiresAt?: string;
  /** Signups it admitted so far. */
  uses: number;
}

/** What a signup may go ahead as. */
export interface SignupAdmission {
  /** `pending` when an operator has to approve the account first. */
  status?: 'pending';
  reason?: string;
  invite?: string;
  /** Gives back what the signup took (its use of an invite), when it fails after all. */
  release: () => Promise<void>;
}

const CODE = /^[A-Za-z0-9_-]{8,64}$/u;
const MAX_REASON = 1000;
const NOTHING = async(): Promise<void> => undefined;

/**
 * The registration mode (`--registrations`) and the invite codes, kept under
 * `<data-dir>/accounts/invites/<code>/`: `invite.json`, and one file `use-<n>` per signup it admitted,
 * each made with O_EXCL, so two signups at once (on any node sharing the data directory) cannot both
 * take an invite's last use.
 */
export class Registrations {
  public readonly mode: RegistrationMode;
  private readonly invites: string;

  /**
   * @param mode - open, approval, invite or closed.
   * @param dataDir - Data directory.
   * @param inviteCreators - Who makes invite codes in the invite mode: `users` (any local user, and the
   *   operator) or `operators` (only the operator).
   */
  public constructor(mode: string, dataDir: string, public readonly inviteCreators = 'users') {
    if (!MODES.includes(mode as RegistrationMode)) {
      throw new Error(`Unknown registration mode ${mode}: one of ${MODES.join(', ')}`);
    }
    this.mode = mode as RegistrationMode;
    this.invites = path.join(dataDir, 'accounts', 'invites');
  }

  /** Whether anyone may sign up without an invite (Mastodon's `registrations`). */
  public get open(): boolean {
    return this.mode === 'open' || this.mode === 'approval';
  }

  /**
   * Whether a signup with this body may go ahead, and as what; a 403 when registrations are closed
   * or the invite code is missing, unknown, used up or expired; a 400 for a reason that is not text.
   * An invite's use is taken here: a signup that then fails gives it back (`release`).
   */
  public async admit(body: Record<string, unknown>): Promise<SignupAdmission> {
    switch (this.mode) {
      case 'closed':
        throw forbidden('Registrations are closed on this server.', 'registrations_closed');
      case 'approval': {
        const reason = body.reason ?? '';
        if (typeof reason !== 'string' || reason.length > MAX_REASON) {
          throw badRequest(`reason must be text of at most ${MAX_REASON} characters.`, 'invalid_reason');
        }
        return { status: 'pending', ...reason.trim() ? { reason: reason.trim() } : {}, release: NOTHING };
      }
      case 'invite':
        return this.takeInvite(body.invite);
      default:
        return { release: NOTHING };
    }
  }

  /** A new invite code: admits `maxUses` signups (any number when absent) until `expiresInSeconds` from now. */
  public async createInvite(createdBy: string, limits: { maxUses?: unknown; expiresInSeconds?: unknown } = {}): Promise<Invite> {
    const maxUses = limits.maxUses ?? undefined;
    const expires = limits.expiresInSeconds ?? undefined;
    if (maxUses !== undefined && (typeof maxUses !== 'number' || !Number.isInteger(maxUses) || maxUses < 1 || maxUses > 10_000)) {
      throw badRequest('maxUses must be a whole number from 1 to 10000.', 'invalid_body');
    }
    if (expires !== undefined && (typeof expires !== 'number' || !Number.isInteger(expires) || expires < 1 || expires > 366 * 86_400)) {
      throw badRequest('expiresInSeconds must be a whole number of seconds from 1 to a year.', 'invalid_body');
    }
    const now = Date.now();
    const invite: Invite = {
      code: randomBytes(12).toString('base64url'),
      createdBy,
      created: new Date(now).toISOString(),
      ...maxUses === undefined ? {} : { maxUses },
      ...expires === undefined ? {} : { expiresAt: new Date(now + expires * 1000).toISOString() },
      uses: 0,
    };
    const folder = path.join(this.invites, invite.code);
    await makeDirectoryDurably(folder, 0o700);
    await writeFileDurably(path.join(folder, 'invite.json'), JSON.stringify(invite));
    return invite;
  }

  /** The invite codes `createdBy` made (every one when absent), with their uses, newest first. */
  public async listInvites(createdBy?: string): Promise<Invite[]> {
    let codes: string[];
    try {
      codes = await fs.readdir(this.invites);
    } catch {
      return [];
    }
    const invites: Invite[] = [];
    for (const code of codes) {
      const invite = await this.read(code);
      if (invite && (createdBy === undefined || invite.createdBy === createdBy)) {
        invites.push(invite);
      }
    }
    return invites.sort((left, right): number => right.created.localeCompare(left.created));
  }

  /** Removes an invite code: it admits nobody from now on (the accounts it admitted stay). Whether it was there. */
  public async revokeInvite(code: string): Promise<boolean> {
    if (!await this.read(code)) {
      return false;
    }
    await fs.rm(path.join(this.invites, code), { recursive: true, force: true });
    return true;
  }

  private async takeInvite(code: unknown): Promise<SignupAdmission> {
    const invalid = (): Error => forbidden('Signup needs a valid invite code (invite) on this server.', 'invalid_invite');
    if (typeof code !== 'string' || !CODE.test(code)) {
      throw invalid();
    }
    const invite = await this.read(code);
    if (!invite || (invite.expiresAt !== undefined && Date.parse(invite.expiresAt) <= Date.now())) {
      throw invalid();
    }
    const limit = invite.maxUses ?? Number.MAX_SAFE_INTEGER;
    // From the first with a limit: a use given back leaves a gap that counts as free again.
    for (let use = invite.maxUses === undefined ? invite.uses + 1 : 1; use <= limit; use += 1) {
      const file = path.join(this.invites, code, `use-${use}`);
      try {
        await fs.writeFile(file, new Date().toISOString(), { flag: 'wx', mode: 0o600 });
      } catch (error: unknown) {
        if (errnoOf(error) === 'EEXIST') {
          continue;
        }
        throw error;
      }
      return { invite: code, release: async(): Promise<void> => fs.rm(file, { force: true }) };
    }
    throw invalid();
  }

  private async read(code: string): Promise<Invite | undefined> {
    if (!CODE.test(code)) {
      return undefined;
    }
    try {
      const invite = JSON.parse(await fs.readFile(path.join(this.invites, code, 'invite.json'), 'utf8')) as Invite;
      const files = await fs.readdir(path.join(this.invites, code));
      return { ...invite, uses: files.filter((name): boolean => name.startsWith('use-')).length };
    } catch (error: unknown) {
      if (errnoOf(error) === 'ENOENT' || error instanceof SyntaxError) {
        return undefined;
      }
      throw error;
    }
  }
}
