import type { Account } from '../../plugins/accounts/Account';
import type { MastodonAccount } from '../../plugins/mastodon/AccountEntity';
import type { MastodonStatus } from '../../plugins/mastodon/StatusEntity';
import type { AccountModeration } from '../../plugins/moderation/AccountModerations';
import type { Report } from '../../plugins/moderation/Reports';

/** Mastodon's Admin::Account: the account with its moderation state (and, for a local one, its login's). */
export function adminAccount(account: MastodonAccount, measures: AccountModeration, local?: Account,
  operator = false): Record<string, unknown> {
  const at = account.acct.indexOf('@');
  return {
    id: account.id,
    username: account.username,
    domain: at < 0 ? null : account.acct.slice(at + 1),
    created_at: local?.created ?? account.created_at,
    email: local?.email ?? '',
    ip: null,
    ips: [],
    locale: null,
    invite_request: null,
    role: { id: operator ? '1' : '-99', name: operator ? 'Operator' : '', permissions: operator ? '1' : '0', color: '', highlighted: operator },
    confirmed: local ? local.confirmation === undefined : true,
    approved: local ? local.status !== 'pending' : true,
    disabled: measures.disabled !== undefined,
    silenced: measures.silenced !== undefined,
    suspended: measures.suspended !== undefined,
    sensitized: measures.sensitive !== undefined,
    account,
  };
}

/** The parts of a report both entities share. */
function reportBase(report: Report): Record<string, unknown> {
  return {
    id: report.id,
    action_taken: report.resolved !== undefined,
    action_taken_at: report.resolved ?? null,
    category: report.category,
    comment: report.comment,
    forwarded: report.forwarded,
    created_at: report.created,
  };
}

/** Mastodon's Report, as the reporter sees it. */
export function userReport(report: Report, target: MastodonAccount, statusIds: string[]): Record<string, unknown> {
  return { ...reportBase(report), status_ids: statusIds, rule_ids: [], target_account: target };
}

/** Mastodon's Admin::Report. */
export function adminReport(report: Report, reporter: Record<string, unknown>, target: Record<string, unknown>,
  statuses: MastodonStatus[], resolvedBy?: Record<string, unknown>): Record<string, unknown> {
  return {
    ...reportBase(report),
    updated_at: report.resolved ?? report.created,
    account: reporter,
    target_account: target,
    assigned_account: null,
    action_taken_by_account: resolvedBy ?? null,
    statuses,
    rules: [],
    // Fedpod's: the account actions taken from the report.
    actions: report.actions,
  };
}
