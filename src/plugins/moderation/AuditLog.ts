import { randomBytes } from 'node:crypto';
import { FileKeyValueStorage } from '../../storage/FileKeyValueStorage';

/** One moderation action: who did what to what, when. */
export interface AuditEntry {
  id: string;
  /** ISO 8601. */
  at: string;
  /** The local username of the operator, or `operator` for the command line (the operator secret). */
  by: string;
  /** E.g. `domain_block.create`, `account.suspend`, `report.resolve`. */
  action: string;
  /** What it was done to: a domain, an actor IRI, a report id. */
  target: string;
  /** What changed, briefly (severity, comment...). */
  detail?: Record<string, unknown>;
}

/**
 * The moderation audit log: one JSON file per entry under `<data-dir>/moderation/audit/`, kept for
 * good (entries are never changed or removed through the server), read by the operator with
 * `fedpod audit-log` or GET /api/v1/admin/audit_log (Fedpod's own: Mastodon has no API for it).
 */
export class AuditLog {
  private readonly storage: FileKeyValueStorage<AuditEntry>;

  public constructor(dataDir: string) {
    this.storage = new FileKeyValueStorage(dataDir, 'moderation/audit');
  }

  public async record(entry: Omit<AuditEntry, 'id' | 'at'>, now = new Date()): Promise<AuditEntry> {
    const at = now.toISOString();
    // Sorts by time: the ISO date first.
    const stored: AuditEntry = { id: `${at}-${randomBytes(4).toString('hex')}`, at, ...entry };
    await this.storage.set(stored.id, stored);
    return stored;
  }

  /** The newest entries first, at most `limit`. */
  public async list(limit = 100): Promise<AuditEntry[]> {
    const entries: AuditEntry[] = [];
    for await (const [ , entry ] of this.storage.entries()) {
      entries.push(entry);
    }
    return entries.sort((left, right): number => right.id.localeCompare(left.id)).slice(0, limit);
  }
}
