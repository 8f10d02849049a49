import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProviderFactory } from '@solid/community-server';
import type { AccountService } from '../../plugins/accounts/AccountService';
import { badRequest, methodNotAllowed } from '../../util/HttpErrors';
import { mediaTypeOf, parseJson, readBody } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import type { OperationInput } from '../http/Operation';
import type { AppAsking } from './LoginPages';
import { consentPage, loginPage, messagePage } from './LoginPages';

type Provider = Awaited<ReturnType<ProviderFactory['getProvider']>>;
type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

const MAX_FORM_BYTES = 16 * 1024;

/**
 * The pages of a Solid-OIDC login at /auth/oidc, where the OpenID provider sends the browser when an
 * app asks to log a user in: the password form (Fedpod's accounts, the same password as
 * /auth/login), then the question whether the app may act as the user. Each answer is recorded on the
 * provider's pending interaction and the browser is sent back to the provider (303), which goes on
 * with the app. The interaction is found by the provider's cookie, which browsers send only from this
 * site (SameSite), so another site cannot post these forms for a user.
 */
export class OidcLoginHandler extends JsonHttpHandler {
  public constructor(
    private readonly providerFactory: ProviderFactory,
    private readonly accounts: AccountService,
  ) {
    super();
  }

  public override async canHandle({ operation }: OperationInput): Promise<void> {
    if (operation.target.path !== '/auth/oidc') {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response }: OperationInput): Promise<void> {
    const method = request.method ?? 'GET';
    if (![ 'GET', 'HEAD', 'POST' ].includes(method)) {
      request.resume();
      throw methodNotAllowed('/auth/oidc takes GET and POST.', 'GET, HEAD, POST');
    }
    const form = method === 'POST' ? await this.readForm(request) : undefined;
    const provider = await this.providerFactory.getProvider();
    let interaction: Interaction;
    try {
      interaction = await provider.interactionDetails(request, response);
    } catch {
      this.sendPage(response, 400, messagePage('This login has expired',
        'Nothing is waiting for a login here: the link expired or was not opened by an app. Go back to the app and log in again.'));
      return;
    }
    const app = await this.appAsking(provider, interaction);
    if (!form) {
      const webId = interaction.session?.accountId;
      this.sendPage(response, 200, interaction.prompt.name === 'consent' && webId ? consentPage(app, webId) : loginPage(app));
      return;
    }
    switch (form.get('action')) {
      case 'login': {
        const login = form.get('login') ?? '';
        let webId: string;
        try {
          const account = await this.accounts.authenticate(login.includes('@') ? { email: login } : { username: login },
            form.get('password') ?? '');
          webId = account.webId;
        } catch {
          this.sendPage(response, 401, loginPage(app, 'Wrong username, email or password.', login));
          return;
        }
        await this.finish(response, interaction, { login: { accountId: webId, remember: form.get('remember') === 'yes' }});
        return;
      }
      case 'consent':
        await this.consent(provider, response, interaction, form.get('remember') === 'yes');
        return;
      case 'cancel':
        await this.finish(response, interaction, { error: 'access_denied', error_description: 'The user said no.' });
        return;
      default:
        throw badRequest('The form needs action=login, consent or cancel.', 'invalid_form');
    }
  }

  /** Grants the app what it asked for (as CSS's consent step does), except offline access unless asked to keep it. */
  private async consent(provider: Provider, response: ServerResponse, interaction: Interaction, remember: boolean):
  Promise<void> {
    const accountId = interaction.session?.accountId;
    if (!accountId) {
      this.sendPage(response, 401, loginPage(await this.appAsking(provider, interaction), 'Log in first.'));
      return;
    }
    const grant = interaction.grantId ?
      await provider.Grant.find(interaction.grantId) :
      new provider.Grant({ accountId, clientId: interaction.params.client_id as string });
    if (!grant) {
      throw badRequest('The grant of this login is gone; start again from the app.', 'grant_gone');
    }
    const details = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (!remember) {
      grant.rejectOIDCScope('offline_access');
    }
    if (details.missingOIDCScope) {
      grant.addOIDCScope(details.missingOIDCScope.join(' '));
    }
    if (details.missingOIDCClaims) {
      grant.addOIDCClaims(details.missingOIDCClaims);
    }
    for (const [ indicator, scopes ] of Object.entries(details.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    await this.finish(response, interaction, { consent: interaction.grantId ? {} : { grantId }});
  }

  /** Records the answer on the interaction and sends the browser back to the provider. */
  private async finish(response: ServerResponse, interaction: Interaction, result: Record<string, unknown>): Promise<void> {
    interaction.result = { ...interaction.lastSubmission, ...result };
    await interaction.persist();
    response.writeHead(303, { location: interaction.returnTo, 'cache-control': 'no-store' });
    response.end();
  }

  private async appAsking(provider: Provider, interaction: Interaction): Promise<AppAsking> {
    const clientId = String(interaction.params.client_id ?? '');
    const client = clientId ? await provider.Client.find(clientId).catch((): undefined => undefined) : undefined;
    const redirectUri = interaction.params.redirect_uri;
    return {
      name: typeof client?.clientName === 'string' ? client.clientName : clientId,
      clientId,
      ...typeof redirectUri === 'string' ? { redirectUri } : {},
    };
  }

  private async readForm(request: IncomingMessage): Promise<URLSearchParams> {
    const body = (await readBody(request, MAX_FORM_BYTES)).toString('utf8');
    if (mediaTypeOf(request.headers['content-type']) === 'application/json') {
      const parsed = parseJson(body);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw badRequest('The body must be a JSON object.', 'invalid_body');
      }
      return new URLSearchParams(Object.entries(parsed as Record<string, unknown>)
        .filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    }
    return new URLSearchParams(body);
  }

  private sendPage(response: ServerResponse, status: number, html: string): void {
    response.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // The pages hold a password form: never inside another site's frame.
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    });
    response.end(html);
  }
}
