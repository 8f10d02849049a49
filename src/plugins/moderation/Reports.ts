import { randomBytes } from 'node:crypto';
import { FileKeyValueStorage } from '../../storage/FileKeyValueStorage';

/** Mastodon's report categories. */
export const REPORT_CATEGORIES = [ 'spam', 'legal', 'violation', 'other' ] as const;
export type ReportCategory = typeof REPORT_CATEGORIES[number];

/** A report of an account (and optionally some of its posts) to this server's operators. */
export interface Report {
  /** Sorts by time: the creation time first. */
  id: string;
  /** ISO 8601. */
  created: string;
  /** Who reported: a local actor IRI, or the remote actor that sent the Flag. */
  reporter: string;
  /** The reported actor IRI. */
  target: string;
  /** The reported posts (IRIs). */
  statuses: string[];
  comment: string;
  category: ReportCategory;
  /** Whether a copy went to the reported account's server (a Flag from the instance actor). */
  forwarded: boolean;
  /** The Flag's IRI, for a report received from another server. */
  flag?: string;
  /** ISO 8601 and who resolved it; absent while open. */
  resolved?: string;
  resolvedBy?: string;
  /** The account actions taken from it (e.g. `suspend`). */
  actions: string[];
}

/**
 * The report queue: one JSON file per report under `<data-dir>/moderation/reports/`, written before
 * a report is acknowledged (it survives a restart). Users' reports (POST /api/v1/reports) and
 * received Flags land here; operators list, resolve and reopen them.
 */
export class Reports {
  private readonly storage: FileKeyValueStorage<Report>;

  public constructor(dataDir: string) {
    this.storage = new FileKeyValueStorage(dataDir, 'moderation/reports');
  }

  public async create(input: Omit<Report, 'id' | 'created' | 'actions'>, now = new Date()): Promise<Report> {
    const created = now.toISOString();
    const report: Report = { id: `${created.replace(/\D/gu, '')}${randomBytes(3).toString('hex')}`, created, ...input, actions: []};
    await this.storage.set(report.id, report);
    return report;
  }

  public async get(id: string): Promise<Report | undefined> {
    return this.storage.get(id);
  }

  /** The reports newest first; `open` keeps the unresolved (true) or resolved (false) ones only. */
  public async list(filter: { open?: boolean; reporter?: string; target?: string } = {}): Promise<Report[]> {
    const reports: Report[] = [];
    for await (const [ , report ] of this.storage.entries()) {
      if ((filter.open === undefined || filter.open === (report.resolved === undefined)) &&
        (filter.reporter === undefined || filter.reporter === report.reporter) &&
        (filter.target === undefined || filter.target === report.target)) {
        reports.push(report);
      }
    }
    return reports.sort((left, right): number => right.id.localeCompare(left.id));
  }

  /** Stores a changed report (resolved, reopened, an action added). */
  public async update(report: Report): Promise<Report> {
    await this.storage.set(report.id, report);
    return report;
  }
}
