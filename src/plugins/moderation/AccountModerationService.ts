import { getLoggerFor } from '@solid/community-server';
import type { Collections } from '../../storage/Collections';
import { badRequest, notFound } from '../../util/HttpErrors';
import type { AccountStore } from '../accounts/AccountStore';
import { ActorUrls } from '../activitypub/ActorUrls';
import { INSTANCE_ACTOR } from '../activitypub/fetch/InstanceActorInitializer';
import type { AccountMeasure, AccountModeration, AccountModerations } from './AccountModerations';
import type { AuditLog } from './AuditLog';
import type { FlagForwarder } from './FlagForwarder';
import { dropFollowsOf } from './FollowDrops';
import type { Report, ReportCategory, Reports } from './Reports';
import { REPORT_CATEGORIES } from './Reports';

/** Mastodon's account actions (POST /api/v1/admin/accounts/:id/action). */
export const ACCOUNT_ACTIONS = [ 'none', 'sensitive', 'disable', 'silence', 'suspend' ] as const;
export type AccountAction = typeof ACCOUNT_ACTIONS[number];
/** What lifts each measure (Mastodon's unsuspend, unsilence, unsensitive, enable). */
export const ACCOUNT_UNDOS = [ 'unsuspend', 'unsilence', 'unsensitive', 'enable' ] as const;
export type AccountUndo = typeof ACCOUNT_UNDOS[number];

const MEASURE_OF: Record<Exclude<AccountAction, 'none'> | AccountUndo, AccountMeasure> = {
  sensitive: 'sensitive', disable: 'disabled', silence: 'silenced', suspend: 'suspended',
  unsensitive: 'sensitive', enable: 'disabled', unsilence: 'silenced', unsuspend: 'suspended',
};

const MAX_COMMENT = 1000;
const MAX_STATUSES = 100;

export interface AccountModerationServiceOptions {
  baseUrl: string;
  measures: AccountModerations;
  reports: Reports;
  audit: AuditLog;
  accounts: AccountStore;
  /** The actors' collections (a remote suspension drops its follows). */
  collections: Collections;
  /** Sends a report's copy to the reported account's server; none: reports are never forwarded. */
  forwarder?: FlagForwarder;
}

/** What a user (or another server, by a Flag) reports. */
export interface ReportInput {
  target: string;
  statuses?: string[];
  comment?: string;
  category?: string;
  forward?: boolean;
}

/**
 * The operator's measures on accounts and the report queue, each action written to the audit log
 * with who did it (a username, or `operator` for the command line). Suspending a local account keeps
 * all its data (unsuspend restores it: the checks read the measure, nothing is deleted); suspending a
 * remote one also drops its follows with local accounts, both ways, which unsuspending does not restore.
 */
export class AccountModerationService {
  protected readonly logger = getLoggerFor(this);
  public readonly urls: ActorUrls;

  public constructor(private readonly options: AccountModerationServiceOptions) {
    this.urls = new ActorUrls(options.baseUrl);
  }

  public get measures(): AccountModerations {
    return this.options.measures;
  }

  public get reports(): Reports {
    return this.options.reports;
  }

  public isLocal(actor: string): boolean {
    return this.urls.usernameOf(actor) !== undefined;
  }

  /** The measures on an actor (none: an empty record). */
  public async measuresOf(actor: string): Promise<AccountModeration> {
    return await this.options.measures.get(actor) ?? { actor };
  }

  /** Takes an action on an account, optionally from a report (which it then resolves); the measures after it. */
  public async act(by: string, actor: string, action: AccountAction, reportId?: string): Promise<AccountModeration> {
    if (!ACCOUNT_ACTIONS.includes(action)) {
      throw badRequest(`type must be one of ${ACCOUNT_ACTIONS.join(', ')}.`, 'invalid_action');
    }
    await this.checkActor(actor, action);
    const report = reportId === undefined ? undefined : await this.reportFor(reportId, actor);
    if (action !== 'none') {
      const changed = await this.options.measures.set(actor, MEASURE_OF[action], true);
      if (changed && action === 'suspend' && !this.isLocal(actor)) {
        const dropped = await dropFollowsOf(this.options, (member): boolean => member === actor);
        this.logger.info(`${actor} suspended by ${by}: ${dropped} follows dropped`);
      }
    }
    await this.options.audit.record({ by, action: `account.${action}`, target: actor, ...report ? { detail: { report: report.id }} : {}});
    if (report) {
      await this.options.reports.update({ ...report, actions: [ ...report.actions, action ],
        resolved: report.resolved ?? new Date().toISOString(), resolvedBy: report.resolvedBy ?? by });
    }
    return this.measuresOf(actor);
  }

  /** Lifts a measure; the measures after it. */
  public async undo(by: string, actor: string, undo: AccountUndo): Promise<AccountModeration> {
    if (!ACCOUNT_UNDOS.includes(undo)) {
      throw badRequest(`Not an undo: ${String(undo)}.`, 'invalid_action');
    }
    await this.checkActor(actor, undo);
    if (await this.options.measures.set(actor, MEASURE_OF[undo], false)) {
      await this.options.audit.record({ by, action: `account.${undo}`, target: actor });
    }
    return this.measuresOf(actor);
  }

  /** Files a report by `reporter` (a local actor IRI, or the sender of a Flag). */
  public async report(reporter: string, input: ReportInput, flag?: string): Promise<Report> {
    const comment = input.comment ?? '';
    if (comment.length > MAX_COMMENT) {
      throw badRequest(`comment may have ${MAX_COMMENT} characters at most.`, 'invalid_comment');
    }
    const category = input.category ?? 'other';
    if (!REPORT_CATEGORIES.includes(category as ReportCategory)) {
      throw badRequest(`category must be one of ${REPORT_CATEGORIES.join(', ')}.`, 'invalid_category');
    }
    const statuses = [ ...new Set(input.statuses ?? []) ];
    if (statuses.length > MAX_STATUSES) {
      throw badRequest(`At most ${MAX_STATUSES} posts are reported at once.`, 'invalid_status_ids');
    }
    if (reporter === input.target) {
      throw badRequest('An account cannot report itself.', 'invalid_account');
    }
    const forward = input.forward === true && !this.isLocal(input.target) && this.options.forwarder !== undefined && !flag;
    let report = await this.options.reports.create({ reporter, target: input.target, statuses, comment,
      category: category as ReportCategory, forwarded: forward, ...flag ? { flag } : {}});
    if (forward) {
      // Kept first: a report whose copy could not be queued is still the operator's to see.
      report = await this.options.reports.update({ ...report, flag: await this.options.forwarder!.forward(report) });
    }
    this.logger.info(`Report ${report.id} about ${report.target} from ${reporter}${forward ? ' (forwarded)' : ''}`);
    return report;
  }

  public async resolve(by: string, id: string): Promise<Report> {
    return this.setResolved(by, id, true);
  }

  public async reopen(by: string, id: string): Promise<Report> {
    return this.setResolved(by, id, false);
  }

  /** The report, 404 when there is none (or it is about another account than `actor`). */
  public async reportFor(id: string, actor?: string): Promise<Report> {
    const report = await this.options.reports.get(id);
    if (!report || (actor !== undefined && report.target !== actor)) {
      throw notFound(`No report ${id}${actor ? ` about ${actor}` : ''}.`, 'not_found');
    }
    return report;
  }

  private async setResolved(by: string, id: string, resolved: boolean): Promise<Report> {
    const report = await this.reportFor(id);
    const { resolved: was, resolvedBy, ...open } = report;
    if ((was !== undefined) === resolved) {
      return report;
    }
    const next: Report = resolved ? { ...open, resolved: new Date().toISOString(), resolvedBy: by } : open;
    await this.options.reports.update(next);
    await this.options.audit.record({ by, action: resolved ? 'report.resolve' : 'report.reopen', target: id,
      detail: { account: report.target, ...resolvedBy && !resolved ? { resolvedBy } : {}}});
    return next;
  }

  /** 404 for a local account that does not exist; 400 for what is no actor IRI, for this server's instance actor. */
  private async checkActor(actor: string, action: string): Promise<void> {
    const username = this.urls.usernameOf(actor);
    if (username === INSTANCE_ACTOR) {
      throw badRequest('This server\'s own actor cannot be moderated.', 'invalid_account');
    }
    if (username !== undefined) {
      if (!await this.options.accounts.findByUsername(username)) {
        throw notFound(`No account ${username}.`, 'unknown_user');
      }
      return;
    }
    if (!/^https?:\/\/[^/]/u.test(actor) || actor.startsWith(this.urls.base)) {
      throw badRequest(`Not an account: ${JSON.stringify(actor.slice(0, 200))}.`, 'invalid_account');
    }
    if (action === 'disable' || action === 'enable') {
      throw badRequest('Only local accounts have a login to disable.', 'invalid_action');
    }
  }
}
