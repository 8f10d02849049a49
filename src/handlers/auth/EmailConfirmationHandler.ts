import type { AccountService } from '../../plugins/accounts/AccountService';
import { prefersHtml } from '../http/BrowserAccept';
import { escapeHtml } from '../http/Html';
import { sendHtml, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { renderPage } from '../http/PageLayout';

/**
 * `GET /auth/confirm?user=<username>&token=<token>`: the link of the confirmation mail sent at signup
 * (with `--smtp-url`). Confirms the account's email once (200, a page for a browser, else
 * `{ username, confirmed: true }`); a wrong or used link is a 400, an expired one a 410.
 */
export class EmailConfirmationHandler extends JsonHttpHandler {
  private readonly base: string;

  public constructor(baseUrl: string, private readonly accounts: AccountService) {
    super();
    this.base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    request.resume();
    const query = operation.target.query;
    const account = await this.accounts.confirmEmail(query.get('user') ?? undefined, query.get('token') ?? undefined);
    const headers = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };
    if (prefersHtml(request)) {
      const next = account.status === 'pending' ? 'Your account now waits for the operator\'s approval.' :
        `You can <a href="${escapeHtml(this.base)}auth/login">log in</a> now.`;
      sendHtml(response, 200, renderPage(this.base, 'Confirmed', `<h1>Address confirmed</h1>\n<p>Thank you, ${escapeHtml(account.username)}. ${next}</p>`),
        headers);
      return;
    }
    sendJson(response, 200, { username: account.username, confirmed: true, pending: account.status === 'pending' }, headers);
  }
}
