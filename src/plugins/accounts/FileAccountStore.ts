import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { makeDirectoryDurably, syncDirectory, writeFileDurably } from '../../util/DurableFiles';
import type { Account } from './Account';
import type { AccountStore } from './AccountStore';
import { errnoOf } from '../../util/Errors';

const USERNAME_FILE = /^[a-z0-9_][a-z0-9._-]{0,63}$/u;
const FOUND_MAX = 10_000;

/** What identifies one version of an account file: a new file (a new signup) differs in some of these. */
interface FileVersion {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/**
 * Accounts as files under `<dataDir>/accounts`: `users/<username>.json` and `emails/<sha256(email)>`
 * (holding the username). Kept out of the triple store on purpose: password hashes must never be
 * reachable through a SPARQL endpoint or an LDP read.
 *
 * Each file is written to a temporary name, fsynced, then hard-linked to its final name: the link
 * is atomic and fails if the name exists, so uniqueness holds across processes sharing the
 * directory, and a crash never leaves a half-written account.
 */
export class FileAccountStore implements AccountStore {
  private readonly users: string;
  private readonly emails: string;
  /**
   * Parsed accounts, each with the version of its file: every inbox delivery and collection read
   * looks its account up. A lookup costs one stat (at most once per `recheckMs`) and re-reads the
   * file when it changed, so an account removed or made again by another node (or process) is
   * served stale for at most `recheckMs`.
   */
  private readonly found = new Map<string, { account: Account; version: FileVersion; checkedAt: number }>();

  /**
   * @param dataDir - The data directory (accounts live in its `accounts/` folder).
   * @param recheckMs - How long a looked-up account is served before its file is checked again (an
   * account file removed by an operator, here or on another node, stops working within this time).
   */
  public constructor(dataDir: string, private readonly recheckMs = 1000) {
    this.users = path.join(dataDir, 'accounts', 'users');
    this.emails = path.join(dataDir, 'accounts', 'emails');
  }

  public async create(account: Account): Promise<{ created: true } | { created: false; taken: 'username' | 'email' }> {
    // Checked first, so a refused name leaves no email file behind.
    const userFile = this.userFile(account.username);
    await this.ensureDirs();
    const emailFile = this.emailFile(account.email);
    if (!await this.linkNew(emailFile, account.username)) {
      return { created: false, taken: 'email' };
    }
    if (!await this.linkNew(userFile, JSON.stringify(account))) {
      await fs.rm(emailFile, { force: true });
      return { created: false, taken: 'username' };
    }
    return { created: true };
  }

  public async findByUsername(username: string): Promise<Account | undefined> {
    if (!USERNAME_FILE.test(username)) {
      return undefined;
    }
    const file = this.userFile(username);
    const known = this.found.get(username);
    if (known && Date.now() - known.checkedAt < this.recheckMs) {
      // Checked a moment ago: every signed delivery looks its recipient up, and a stat each costs more
      // than the rest of the lookup. An account changed in place (approved) is seen within recheckMs.
      return known.account;
    }
    try {
      const stats = await fs.stat(file);
      const version: FileVersion = { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
      const cached = this.found.get(username);
      if (cached && FileAccountStore.sameVersion(cached.version, version)) {
        cached.checkedAt = Date.now();
        return cached.account;
      }
      // Read after the stat: if the file changed in between, the next stat differs and reads it again.
      const account = JSON.parse(await fs.readFile(file, 'utf8')) as Account;
      this.found.delete(username);
      this.found.set(username, { account, version, checkedAt: Date.now() });
      if (this.found.size > FOUND_MAX) {
        this.found.delete(this.found.keys().next().value as string);
      }
      return account;
    } catch (error: unknown) {
      if (errnoOf(error) === 'ENOENT') {
        this.found.delete(username);
        return undefined;
      }
      throw error;
    }
  }

  public async findByEmail(email: string): Promise<Account | undefined> {
    try {
      const username = await fs.readFile(this.emailFile(email), 'utf8');
      return this.findByUsername(username);
    } catch (error: unknown) {
      if (errnoOf(error) === 'ENOENT') {
        return undefined;
      }
      throw error;
    }
  }

  public async update(account: Account): Promise<boolean> {
    const stored = await this.findByUsername(account.username);
    if (!stored || stored.email !== account.email) {
      return false;
    }
    // A new file renamed over the old: its inode changes, so other processes' caches see the change.
    await writeFileDurably(this.userFile(account.username), JSON.stringify(account));
    this.found.delete(account.username);
    return true;
  }

  public async remove(username: string): Promise<void> {
    const account = await this.findByUsername(username);
    if (!account) {
      return;
    }
    this.found.delete(username);
    await fs.rm(this.userFile(username), { force: true });
    await fs.rm(this.emailFile(account.email), { force: true });
    await syncDirectory(this.users);
  }

  public async list(): Promise<string[]> {
    try {
      return (await fs.readdir(this.users)).filter((name): boolean => name.endsWith('.json'))
        .map((name): string => name.slice(0, -'.json'.length)).sort();
    } catch {
      return [];
    }
  }

  private static sameVersion(left: FileVersion, right: FileVersion): boolean {
    return left.ino === right.ino && left.size === right.size && left.mtimeMs === right.mtimeMs && left.ctimeMs === right.ctimeMs;
  }

  private userFile(username: string): string {
    if (!USERNAME_FILE.test(username)) {
      throw new Error(`Unsafe username for a file name: ${JSON.stringify(username)}`);
    }
    return path.join(this.users, `${username}.json`);
  }

  private emailFile(email: string): string {
    return path.join(this.emails, createHash('sha256').update(email.toLowerCase()).digest('hex'));
  }

  private async ensureDirs(): Promise<void> {
    await makeDirectoryDurably(this.users, 0o700);
    await makeDirectoryDurably(this.emails, 0o700);
  }

  /** Writes `content` durably under `file` unless it exists; false when it exists. */
  private async linkNew(file: string, content: string): Promise<boolean> {
    const temporary = `${file}.${randomUUID()}.tmp`;
    const handle = await fs.open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await fs.link(temporary, file);
      await syncDirectory(path.dirname(file));
      return true;
    } catch (error: unknown) {
      if (errnoOf(error) === 'EEXIST') {
        return false;
      }
      throw error;
    } finally {
      await fs.rm(temporary, { force: true });
    }
  }
}
