import type { ChangeCounter } from '../cluster/ChangeCounter';
import type { LoginPolicy } from '../accounts/LoginPolicy';
import { WatchedRecords } from './WatchedRecords';

/** What an operator did to one account (local or remote); an account with nothing set has no record. */
export interface AccountModeration {
  /** The actor IRI. */
  actor: string;
  /** ISO 8601 of each measure in force; absent: not in force. */
  suspended?: string;
  silenced?: string;
  sensitive?: string;
  /** A local account's login only (Mastodon's `disable`): it stays visible. */
  disabled?: string;
}

export type AccountMeasure = 'suspended' | 'silenced' | 'sensitive' | 'disabled';

/**
 * The operator's measures on accounts (suspended, silenced, marked sensitive), one JSON file per
 * account under `<data-dir>/moderation/accounts/`, kept across restarts. As DomainBlocks, every check
 * reads the shared `changes` counter (ModerationChanges) and reloads when it moved, so a suspension
 * made through any node holds on every node at once. A suspension keeps the account's data: lifting
 * it restores everything.
 */
export class AccountModerations implements LoginPolicy {
  private readonly records: WatchedRecords<AccountModeration>;

  public constructor(dataDir: string, changes?: ChangeCounter) {
    this.records = new WatchedRecords(dataDir, 'moderation/accounts', changes);
  }

  /** Every account with a measure in force, by actor IRI. */
  public async list(): Promise<AccountModeration[]> {
    return [ ...(await this.all()).values() ].sort((left, right): number => left.actor.localeCompare(right.actor));
  }

  public async get(actor: string): Promise<AccountModeration | undefined> {
    return (await this.all()).get(actor);
  }

  public async isSuspended(actor: string): Promise<boolean> {
    return (await this.get(actor))?.suspended !== undefined;
  }

  /** Whether the actor's posts stay out of public timelines (silenced or suspended). */
  public async isSilenced(actor: string): Promise<boolean> {
    const record = await this.get(actor);
    return record?.silenced !== undefined || record?.suspended !== undefined;
  }

  /** Whether a local account may not log in or use its tokens (suspended or disabled). */
  public async isLocked(actor: string): Promise<boolean> {
    const record = await this.get(actor);
    return record?.suspended !== undefined || record?.disabled !== undefined;
  }

  public async isSensitive(actor: string): Promise<boolean> {
    return (await this.get(actor))?.sensitive !== undefined;
  }

  /** Puts a measure in force (true) or lifts it (false); whether anything changed. */
  public async set(actor: string, measure: AccountMeasure, on: boolean, now = new Date()): Promise<boolean> {
    const previous = (await this.all()).get(actor) ?? { actor };
    if ((previous[measure] !== undefined) === on) {
      return false;
    }
    const next: AccountModeration = { ...previous };
    if (on) {
      next[measure] = now.toISOString();
    } else {
      delete next[measure];
    }
    await this.records.write(actor, next.suspended ?? next.silenced ?? next.sensitive ?? next.disabled ? next : undefined);
    return true;
  }

  private async all(): Promise<Map<string, AccountModeration>> {
    return this.records.all();
  }
}
