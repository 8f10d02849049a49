import type { ProviderFactory } from '@solid/community-server';
import { OidcLoginHandler } from '../../../../src/handlers/auth/OidcLoginHandler';
import type { Account } from '../../../../src/plugins/accounts/Account';
import type { AccountService } from '../../../../src/plugins/accounts/AccountService';
import { unauthorized } from '../../../../src/util/HttpErrors';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';

const ALICE = 'https://pod.example/actors/alice';
const CLIENT_ID = 'https://app.example/id';

/** The parts of an oidc-provider interaction the handler reads and writes. */
interface InteractionStandIn {
  prompt: { name: string; details: Record<string, unknown> };
  params: Record<string, unknown>;
  session?: { accountId: string };
  grantId?: string;
  lastSubmission?: Record<string, unknown>;
  returnTo: string;
  result?: Record<string, unknown>;
  persisted: boolean;
  persist: () => Promise<void>;
}

/** What was done to a grant, in order. */
type GrantCall = [string, ...unknown[]];

/** An OpenID provider with one pending interaction (or none), its clients and grants. */
class ProviderStandIn {
  public interaction?: InteractionStandIn;
  public readonly grants = new Map<string, GrantCall[]>();
  public saved = 0;

  public interact(prompt: string, extra: Partial<InteractionStandIn> = {}): InteractionStandIn {
    const interaction: InteractionStandIn = {
      prompt: { name: prompt, details: {}},
      params: { client_id: CLIENT_ID, redirect_uri: 'https://app.example/callback?x=1' },
      returnTo: 'https://pod.example/.oidc/auth/abc',
      persisted: false,
      persist: async(): Promise<void> => {
        interaction.persisted = true;
      },
      ...extra,
    };
    this.interaction = interaction;
    return interaction;
  }

  public factory(): ProviderFactory {
    const Grant = grantClass(this);
    const provider = {
      interactionDetails: async(): Promise<InteractionStandIn> => {
        if (!this.interaction) {
          throw new Error('interaction session not found');
        }
        return this.interaction;
      },
      Client: { find: async(id: string): Promise<{ clientName: string } | undefined> => id === CLIENT_ID ? { clientName: 'Solid <App>' } : undefined },
      Grant,
    };
    return { getProvider: async(): Promise<unknown> => provider } as unknown as ProviderFactory;
  }
}

/** Grants as oidc-provider's Grant model has them, kept in `standIn`'s map by id. */
function grantClass(standIn: ProviderStandIn) {
  class Grant {
    public readonly calls: GrantCall[];
    public id?: string;

    public constructor(init: Record<string, unknown>) {
      this.calls = [ [ 'new', init ] ];
    }

    public static async find(id: string): Promise<Grant | undefined> {
      const calls = standIn.grants.get(id);
      if (!calls) {
        return undefined;
      }
      const grant = new Grant({});
      grant.calls.splice(0, 1, ...calls);
      grant.id = id;
      return grant;
    }

    public rejectOIDCScope(scope: string): void {
      this.calls.push([ 'rejectOIDCScope', scope ]);
    }

    public addOIDCScope(scope: string): void {
      this.calls.push([ 'addOIDCScope', scope ]);
    }

    public addOIDCClaims(claims: string[]): void {
      this.calls.push([ 'addOIDCClaims', claims ]);
    }

    public addResourceScope(indicator: string, scope: string): void {
      this.calls.push([ 'addResourceScope', indicator, scope ]);
    }

    public async save(): Promise<string> {
      standIn.saved += 1;
      this.id ??= `grant-${standIn.saved}`;
      standIn.grants.set(this.id, this.calls);
      return this.id;
    }
  }
  return Grant;
}

describe('OidcLoginHandler', (): void => {
  const provider = new ProviderStandIn();
  const logins: unknown[] = [];
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    const accounts = {
      authenticate: async(login: Record<string, string>, password: string): Promise<Account> => {
        logins.push(login);
        if ((login.username !== 'alice' && login.email !== 'alice@mail.example') || password !== 'right') {
          throw unauthorized('Wrong username or password.');
        }
        return { username: 'alice', email: 'alice@mail.example', webId: ALICE, passwordHash: 'x', created: '2026-01-01T00:00:00Z' };
      },
    } as unknown as AccountService;
    server = await serveHandler(new OidcLoginHandler(provider.factory(), accounts));
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  beforeEach((): void => {
    provider.interaction = undefined;
    provider.grants.clear();
    logins.length = 0;
  });

  async function submit(fields: Record<string, string> | string, contentType = 'application/x-www-form-urlencoded'): Promise<Response> {
    return fetch(`${server.base}/auth/oidc`, { method: 'POST', redirect: 'manual', headers: { 'content-type': contentType },
      body: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString() });
  }

  it('shows the password form for a pending login, naming the app and where it answers, framed by nobody', async(): Promise<void> => {
    provider.interact('login');
    const response = await fetch(`${server.base}/auth/oidc`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await response.text();
    expect(html).toContain('<strong class="app">Solid &lt;App&gt;</strong>');
    expect(html).toContain('https://app.example</span>');
    expect(html).toContain('name="password"');
  });

  it('asks for consent once the user is logged in', async(): Promise<void> => {
    provider.interact('consent', { session: { accountId: ALICE }});
    const html = await (await fetch(`${server.base}/auth/oidc`)).text();
    expect(html).toContain('Allow this app?');
    expect(html).toContain(ALICE);
  });

  it('answers 400 with a page when no login is waiting', async(): Promise<void> => {
    const response = await fetch(`${server.base}/auth/oidc`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('This login has expired');
  });

  it('logs in by username or email and sends the browser back to the provider (303)', async(): Promise<void> => {
    const interaction = provider.interact('login', { lastSubmission: { earlier: true }});
    const response = await submit({ action: 'login', login: 'alice', password: 'right' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('https://pod.example/.oidc/auth/abc');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(interaction.result).toEqual({ earlier: true, login: { accountId: ALICE, remember: false }});
    expect(interaction.persisted).toBe(true);
    const byEmail = provider.interact('login');
    await submit({ action: 'login', login: 'alice@mail.example', password: 'right', remember: 'yes' });
    expect(byEmail.result).toEqual({ login: { accountId: ALICE, remember: true }});
    expect(logins).toEqual([{ username: 'alice' }, { email: 'alice@mail.example' }]);
  });

  it('takes the same answers as JSON', async(): Promise<void> => {
    const interaction = provider.interact('login');
    const response = await submit(JSON.stringify({ action: 'login', login: 'alice', password: 'right', ignored: 3 }), 'application/json');
    expect(response.status).toBe(303);
    expect(interaction.result).toEqual({ login: { accountId: ALICE, remember: false }});
    provider.interact('login');
    const array = await submit('[1]', 'application/json');
    expect(array.status).toBe(400);
    expect((await array.json() as { error: string }).error).toBe('invalid_body');
  });

  it('shows the form again with 401 for a wrong password, keeping what was typed as login', async(): Promise<void> => {
    const interaction = provider.interact('login');
    const response = await submit({ action: 'login', login: 'alice"<', password: 'wrong' });
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(html).toContain('Wrong username, email or password.');
    expect(html).toContain('value="alice&quot;&lt;"');
    expect(interaction.persisted).toBe(false);
  });

  it('grants a new app what it asks for, without offline access unless kept', async(): Promise<void> => {
    const interaction = provider.interact('consent', { session: { accountId: ALICE }});
    interaction.prompt.details = { missingOIDCScope: [ 'openid', 'webid', 'offline_access' ], missingOIDCClaims: [ 'webid' ],
      missingResourceScopes: { 'https://pod.example/': [ 'read', 'write' ]}};
    expect((await submit({ action: 'consent' })).status).toBe(303);
    expect(interaction.result).toEqual({ consent: { grantId: 'grant-1' }});
    expect(provider.grants.get('grant-1')).toEqual([
      [ 'new', { accountId: ALICE, clientId: CLIENT_ID }],
      [ 'rejectOIDCScope', 'offline_access' ],
      [ 'addOIDCScope', 'openid webid offline_access' ],
      [ 'addOIDCClaims', [ 'webid' ]],
      [ 'addResourceScope', 'https://pod.example/', 'read write' ],
    ]);
  });

  it('adds to an existing grant, keeping offline access when asked to', async(): Promise<void> => {
    provider.grants.set('existing', [ [ 'new', { accountId: ALICE, clientId: CLIENT_ID }] ]);
    const interaction = provider.interact('consent', { session: { accountId: ALICE }, grantId: 'existing' });
    interaction.prompt.details = { missingOIDCScope: [ 'offline_access' ]};
    expect((await submit({ action: 'consent', remember: 'yes' })).status).toBe(303);
    expect(interaction.result).toEqual({ consent: {}});
    expect(provider.grants.get('existing')).toEqual([ [ 'new', { accountId: ALICE, clientId: CLIENT_ID }], [ 'addOIDCScope', 'offline_access' ] ]);
  });

  it('refuses consent before a login (401 form) and when the grant is gone (400 grant_gone)', async(): Promise<void> => {
    provider.interact('consent');
    const early = await submit({ action: 'consent' });
    expect(early.status).toBe(401);
    expect(await early.text()).toContain('Log in first.');
    provider.interact('consent', { session: { accountId: ALICE }, grantId: 'vanished' });
    const gone = await submit({ action: 'consent' });
    expect(gone.status).toBe(400);
    expect((await gone.json() as { error: string }).error).toBe('grant_gone');
  });

  it('tells the app the user said no on cancel', async(): Promise<void> => {
    const interaction = provider.interact('consent', { session: { accountId: ALICE }});
    expect((await submit({ action: 'cancel' })).status).toBe(303);
    expect(interaction.result).toEqual({ error: 'access_denied', error_description: 'The user said no.' });
  });

  it('answers 400 invalid_form to any other action and 405 to other methods', async(): Promise<void> => {
    provider.interact('login');
    const other = await submit({ action: 'steal' });
    expect(other.status).toBe(400);
    expect((await other.json() as { error: string }).error).toBe('invalid_form');
    const put = await fetch(`${server.base}/auth/oidc`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('takes only its own path', async(): Promise<void> => {
    for (const target of [ '/auth/oidc/', '/auth/oidcx', '/auth/login' ]) {
      expect({ target, declined: declined(await fetch(`${server.base}${target}`)) }).toEqual({ target, declined: true });
    }
  });
});
