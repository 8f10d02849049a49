import type { AccountAction, AccountModerationService, AccountUndo } from '../../plugins/moderation/AccountModerationService';
import { ACCOUNT_UNDOS } from '../../plugins/moderation/AccountModerationService';
import { badRequest, methodNotAllowed } from '../../util/HttpErrors';
import { readJsonBody, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { CLI, objectOf, stringField } from './OperatorModerationHandler';

const BODY_LIMIT = 16 * 1024;

/**
 * The operator's account and report commands (`fedpod accounts suspend ...`, `fedpod reports ...`),
 * answered by the running server behind OperatorAccess, by the route's name:
 * - `operator-account-moderation`: GET lists the accounts with a measure in force; POST
 *   `{account, action, report}` takes an action (none, sensitive, disable, silence, suspend) or lifts
 *   one (unsuspend, unsilence, unsensitive, enable); `account` is a local username or an actor IRI;
 * - `operator-reports`: GET the open reports (`?all=true`: every one);
 * - `operator-report`: GET `:id`; POST `{state: "resolve" | "reopen"}`.
 */
export class OperatorAccountModerationHandler extends JsonHttpHandler {
  public constructor(private readonly moderation: AccountModerationService) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const method = request.method;
    switch (`${operation.route.name} ${method}`) {
      case 'operator-account-moderation GET':
        sendJson(response, 200, await this.moderation.measures.list());
        return;
      case 'operator-account-moderation POST': {
        const body = objectOf(await readJsonBody(request, BODY_LIMIT));
        const account = stringField(body, 'account');
        const action = stringField(body, 'action');
        if (!account || !action) {
          throw badRequest('Send {"account": "<username or actor IRI>", "action": "<action>"}.', 'invalid_body');
        }
        const actor = /^https?:/u.test(account) ? account : this.moderation.urls.actor(account.replace(/^@/u, '').toLowerCase());
        const measures = ACCOUNT_UNDOS.includes(action as AccountUndo) ?
          await this.moderation.undo(CLI, actor, action as AccountUndo) :
          await this.moderation.act(CLI, actor, action as AccountAction, stringField(body, 'report'));
        sendJson(response, 200, measures);
        return;
      }
      case 'operator-reports GET':
        sendJson(response, 200, await this.moderation.reports.list(operation.target.query.get('all') === 'true' ? {} : { open: true }));
        return;
      case 'operator-report GET':
        sendJson(response, 200, await this.moderation.reportFor(operation.params.id ?? ''));
        return;
      case 'operator-report POST': {
        const state = stringField(objectOf(await readJsonBody(request, BODY_LIMIT)), 'state');
        if (state !== 'resolve' && state !== 'reopen') {
          throw badRequest('Send {"state": "resolve"} or {"state": "reopen"}.', 'invalid_body');
        }
        const id = operation.params.id ?? '';
        sendJson(response, 200, state === 'resolve' ? await this.moderation.resolve(CLI, id) : await this.moderation.reopen(CLI, id));
        return;
      }
      default:
        throw methodNotAllowed(`${method ?? ''} is not served here.`, operation.route.name === 'operator-reports' ? 'GET' : 'GET, POST');
    }
  }
}
