import { recordNotFound } from '../../plugins/mastodon/MastodonRecords';
import type { AccountStore } from '../../plugins/accounts/AccountStore';
import type { MastodonAccount } from '../../plugins/mastodon/AccountEntity';
import type { MastodonAccounts } from '../../plugins/mastodon/MastodonAccounts';
import type { MastodonStatuses } from '../../plugins/mastodon/MastodonStatuses';
import type { AccountAction, AccountModerationService, AccountUndo } from '../../plugins/moderation/AccountModerationService';
import type { ModerationRoles } from '../../plugins/moderation/ModerationRoles';
import type { Report } from '../../plugins/moderation/Reports';
import { FedpodHttpError } from '../../util/HttpErrors';
import { sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { booleanField } from '../moderation/OperatorModerationHandler';
import { adminAccount, adminReport, userReport } from './AdminEntities';
import { MastodonHandler } from './MastodonHandler';
import type { OAuthParams } from './OAuthParams';
import { readOAuthParams, single } from './OAuthParams';

const MAX_LIMIT = 200;

/** The values of a list parameter (`status_ids[]`), none when absent. */
function listOf(params: OAuthParams, name: string): string[] {
  const value = params[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [ value ];
}

/**
 * Account moderation and reports in the Mastodon API, by the route's name:
 * - for operators (OperatorRoleAccess): `mastodon-admin-accounts` (GET, v1 and v2 filters),
 *   `mastodon-admin-account` (GET `:id`), `mastodon-admin-account-action` (POST `:id/action` with
 *   `type` none, sensitive, disable, silence or suspend, and `report_id`), `mastodon-admin-account-undo`
 *   (POST `:id/unsuspend`, `unsilence`, `unsensitive`, `enable`), `mastodon-admin-reports` (GET, `resolved`,
 *   `account_id`, `target_account_id`), `mastodon-admin-report` (GET `:id`), `mastodon-admin-report-state`
 *   (POST `:id/resolve`, `:id/reopen`);
 * - for users: `mastodon-reports` (POST files a report; GET, Fedpod's, lists the user's own) and
 *   `mastodon-report` (GET `:id`, one of the user's own; 404 for anyone else's).
 * Accounts listed by the admin API: every local one, and the remote ones with a measure in force.
 */
export class MastodonAccountModerationHandler extends MastodonHandler {
  public constructor(
    private readonly moderation: AccountModerationService,
    private readonly accounts: MastodonAccounts,
    private readonly statuses: MastodonStatuses,
    private readonly store: AccountStore,
    private readonly roles: ModerationRoles,
  ) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const username = operation.agent.username!;
    const reader = { iri: this.accounts.urls.actor(username), username };
    const query = operation.target.query;
    switch (`${operation.route.name} ${request.method}`) {
      case 'mastodon-reports POST': {
        const params = await readOAuthParams(request, query);
        const target = await this.accounts.byId(single(params, 'account_id') ?? '');
        if (!target) {
          throw recordNotFound('No such account.');
        }
        const statuses = await Promise.all(listOf(params, 'status_ids').map(async(id): Promise<string> => {
          const status = await this.statuses.get(id, reader);
          if (status.account.uri !== target.uri) {
            throw new FedpodHttpError(422, 'Validation failed', `Status ${id} is not by the reported account.`);
          }
          return status.uri;
        }));
        const report = await this.moderation.report(reader.iri, { target: target.uri, statuses, comment: single(params, 'comment'),
          category: single(params, 'category'), forward: booleanField(params, 'forward') ?? false });
        sendJson(response, 200, userReport(report, target, listOf(params, 'status_ids')));
        return;
      }
      case 'mastodon-reports GET':
      case 'mastodon-reports HEAD': {
        const reports = await this.moderation.reports.list({ reporter: reader.iri });
        sendJson(response, 200, await Promise.all(reports.map(async(report) => this.ownReport(report))));
        return;
      }
      case 'mastodon-report GET':
      case 'mastodon-report HEAD': {
        const report = await this.moderation.reports.get(operation.params.id ?? '');
        if (report?.reporter !== reader.iri) {
          throw recordNotFound('No such report.');
        }
        sendJson(response, 200, await this.ownReport(report));
        return;
      }
      case 'mastodon-admin-accounts GET':
      case 'mastodon-admin-accounts HEAD':
        sendJson(response, 200, await this.listAccounts(query));
        return;
      case 'mastodon-admin-account GET':
      case 'mastodon-admin-account HEAD':
        sendJson(response, 200, await this.adminAccountOf((await this.target(operation.params.id)).uri));
        return;
      case 'mastodon-admin-account-action POST': {
        const params = await readOAuthParams(request, query);
        const target = await this.target(operation.params.id);
        if (target.uri === reader.iri) {
          throw new FedpodHttpError(403, 'This action is not allowed', 'An operator cannot take an action on their own account.');
        }
        await this.moderation.act(username, target.uri, (single(params, 'type') ?? 'none') as AccountAction, single(params, 'report_id'));
        // Mastodon answers an empty object.
        sendJson(response, 200, {});
        return;
      }
      case 'mastodon-admin-account-undo POST': {
        const target = await this.target(operation.params.id);
        await this.moderation.undo(username, target.uri, (operation.params.undo ?? '') as AccountUndo);
        sendJson(response, 200, await this.adminAccountOf(target.uri));
        return;
      }
      case 'mastodon-admin-reports GET':
      case 'mastodon-admin-reports HEAD': {
        const resolved = query.get('resolved');
        const reporter = query.get('account_id');
        const target = query.get('target_account_id');
        const reports = await this.moderation.reports.list({
          open: resolved === 'true' ? false : true,
          ...reporter ? { reporter: (await this.target(reporter)).uri } : {},
          ...target ? { target: (await this.target(target)).uri } : {},
        });
        const limit = Math.min(Number(query.get('limit') ?? 100) || 100, MAX_LIMIT);
        sendJson(response, 200, await Promise.all(reports.slice(0, limit).map(async(report) => this.adminReportOf(report, reader))));
        return;
      }
      case 'mastodon-admin-report GET':
      case 'mastodon-admin-report HEAD':
        sendJson(response, 200, await this.adminReportOf(await this.moderation.reportFor(operation.params.id ?? ''), reader));
        return;
      default: {
        // mastodon-admin-report-state POST: resolve or reopen.
        const id = operation.params.id ?? '';
        if (operation.params.state !== 'resolve' && operation.params.state !== 'reopen') {
          throw recordNotFound('Only resolve and reopen are served here.');
        }
        const report = operation.params.state === 'reopen' ?
          await this.moderation.reopen(username, id) :
          await this.moderation.resolve(username, id);
        sendJson(response, 200, await this.adminReportOf(report, reader));
      }
    }
  }

  private async target(id: string | undefined): Promise<MastodonAccount> {
    const account = await this.accounts.byId(id ?? '');
    if (!account) {
      throw recordNotFound('No such account.');
    }
    return account;
  }

  private async ownReport(report: Report): Promise<Record<string, unknown>> {
    return userReport(report, await this.accounts.accountOf(report.target),
      await Promise.all(report.statuses.map(async(iri): Promise<string> => this.accounts.idOf(iri))));
  }

  private async adminAccountOf(actor: string): Promise<Record<string, unknown>> {
    const username = this.accounts.urls.usernameOf(actor);
    const local = username === undefined ? undefined : await this.store.findByUsername(username);
    return adminAccount(await this.accounts.accountOf(actor), await this.moderation.measuresOf(actor), local,
      username !== undefined && await this.roles.isOperator(username));
  }

  private async adminReportOf(report: Report, reader: { iri: string; username: string }): Promise<Record<string, unknown>> {
    const [ reporter, target, statuses ] = await Promise.all([
      this.adminAccountOf(report.reporter),
      this.adminAccountOf(report.target),
      this.statuses.statusesOf(report.statuses, reader),
    ]);
    const resolvedBy = report.resolvedBy && report.resolvedBy !== 'operator' ?
      await this.adminAccountOf(this.accounts.urls.actor(report.resolvedBy)).catch((): undefined => undefined) :
      undefined;
    return adminReport(report, reporter, target, statuses, resolvedBy);
  }

  /** Local accounts and moderated remote ones, filtered as Mastodon's v1 and v2 parameters say. */
  private async listAccounts(query: URLSearchParams): Promise<Record<string, unknown>[]> {
    const actors = new Set((await this.store.list()).sort().map((name): string => this.accounts.urls.actor(name)));
    for (const record of await this.moderation.measures.list()) {
      actors.add(record.actor);
    }
    const origin = query.get('origin') ?? (query.get('local') === 'true' ? 'local' : query.get('remote') === 'true' ? 'remote' : undefined);
    const status = query.get('status') ?? [ 'active', 'pending', 'disabled', 'silenced', 'suspended', 'sensitized' ]
      .find((name): boolean => query.get(name) === 'true');
    const username = query.get('username')?.toLowerCase();
    const domain = query.get('by_domain')?.toLowerCase();
    const limit = Math.min(Number(query.get('limit') ?? 100) || 100, MAX_LIMIT);
    const found: Record<string, unknown>[] = [];
    for (const actor of actors) {
      const local = this.moderation.isLocal(actor);
      if ((origin === 'local' && !local) || (origin === 'remote' && local)) {
        continue;
      }
      const entry = await this.adminAccountOf(actor).catch((): undefined => undefined);
      if (!entry || !matches(entry, status) || (username && entry.username !== username) || (domain && entry.domain !== domain)) {
        continue;
      }
      found.push(entry);
      if (found.length >= limit) {
        break;
      }
    }
    return found;
  }
}

/** Whether an Admin::Account has the state a listing asks for. */
function matches(entry: Record<string, unknown>, status: string | undefined): boolean {
  switch (status) {
    case undefined: return true;
    case 'active': return !entry.suspended && !entry.disabled && entry.approved === true;
    case 'pending': return entry.approved === false;
    default: return entry[status] === true;
  }
}
