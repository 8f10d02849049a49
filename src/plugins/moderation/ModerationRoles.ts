import { FileKeyValueStorage } from '../../storage/FileKeyValueStorage';

/** The roles a local account may have; an account without one is a user. */
export type ModerationRole = 'operator';

interface RoleRecord {
  role: ModerationRole;
  /** ISO 8601. */
  granted: string;
}

/**
 * Which local accounts are operators (moderators with every power: the Mastodon admin API, the
 * moderation pages), one file per such account under `<data-dir>/moderation/roles/`. Given and taken
 * by the operator's command `fedpod accounts role <user> operator|none`; read on every request that
 * needs it (no cache), so a role taken away holds at once on every node.
 */
export class ModerationRoles {
  private readonly storage: FileKeyValueStorage<RoleRecord>;

  public constructor(dataDir: string) {
    this.storage = new FileKeyValueStorage(dataDir, 'moderation/roles');
  }

  public async isOperator(username: string | undefined): Promise<boolean> {
    return username !== undefined && (await this.storage.get(username))?.role === 'operator';
  }

  /** Gives a role, or takes it away (none); whether anything changed. */
  public async set(username: string, role: ModerationRole | 'none', now = new Date()): Promise<boolean> {
    const had = await this.storage.get(username);
    if (role === 'none') {
      return had ? this.storage.delete(username) : false;
    }
    if (had?.role === role) {
      return false;
    }
    await this.storage.set(username, { role, granted: now.toISOString() });
    return true;
  }

  /** Every account with a role. */
  public async list(): Promise<{ username: string; role: ModerationRole; granted: string }[]> {
    const all: { username: string; role: ModerationRole; granted: string }[] = [];
    for await (const [ username, record ] of this.storage.entries()) {
      all.push({ username, ...record });
    }
    return all.sort((left, right): number => left.username.localeCompare(right.username));
  }
}
