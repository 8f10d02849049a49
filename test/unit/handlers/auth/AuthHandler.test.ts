import { AuthHandler } from '../../../../src/handlers/auth/AuthHandler';
import type { AccountService, Session } from '../../../../src/plugins/accounts/AccountService';
import { badRequest, conflict, unauthorized } from '../../../../src/util/HttpErrors';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';

const ALICE = 'https://pod.example/actors/alice';

/** An AccountService that records the bodies it gets: signup takes any new username, login alice's password only. */
class AccountsStandIn {
  public readonly received: { call: 'signup' | 'login'; body: unknown }[] = [];

  public service(): AccountService {
    return {
      signup: async(body: unknown): Promise<Session> => {
        this.received.push({ call: 'signup', body });
        const username = (body as { username?: string }).username;
        if (typeof username !== 'string') {
          throw badRequest('username is required.', 'invalid_username');
        }
        if (username === 'alice') {
          throw conflict('That username is taken.', 'username_taken');
        }
        return { token: `token-of-${username}`, webId: `https://pod.example/actors/${username}` };
      },
      login: async(body: unknown): Promise<Session> => {
        this.received.push({ call: 'login', body });
        if ((body as { password?: string }).password !== 'right') {
          throw unauthorized('Wrong username or password.', 'invalid_credentials');
        }
        return { token: 'token-of-alice', webId: ALICE };
      },
    } as unknown as AccountService;
  }
}

describe('AuthHandler', (): void => {
  let accounts: AccountsStandIn;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    accounts = new AccountsStandIn();
    server = await serveHandler(new AuthHandler(accounts.service()));
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  beforeEach((): void => {
    accounts.received.length = 0;
  });

  async function post(path: string, body: string, contentType = 'application/json'): Promise<Response> {
    return fetch(`${server.base}${path}`, { method: 'POST', body, headers: { 'content-type': contentType }});
  }

  it('signs up: 201, Location the WebID, the token, never cached', async(): Promise<void> => {
    const body = { username: 'bob', email: 'bob@mail.example', password: 'long enough' };
    const response = await post('/auth/signup', JSON.stringify(body));
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('https://pod.example/actors/bob');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ token: 'token-of-bob', webId: 'https://pod.example/actors/bob', newUser: true });
    expect(accounts.received).toEqual([{ call: 'signup', body }]);
  });

  it('logs in: 200 with the token, no Location', async(): Promise<void> => {
    const response = await post('/auth/login?next=x', JSON.stringify({ username: 'alice', password: 'right' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ token: 'token-of-alice', webId: ALICE, newUser: false });
  });

  it('passes on the account service\'s refusals with their status and code', async(): Promise<void> => {
    const taken = await post('/auth/signup', JSON.stringify({ username: 'alice' }));
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({ error: 'username_taken', message: 'That username is taken.' });
    const wrong = await post('/auth/login', JSON.stringify({ username: 'alice', password: 'wrong' }));
    expect(wrong.status).toBe(401);
    expect((await wrong.json() as { error: string }).error).toBe('invalid_credentials');
  });

  it('takes JSON only: 415 for a form, 400 invalid_json for broken JSON, 413 past 16 KiB', async(): Promise<void> => {
    const form = await post('/auth/login', 'username=alice&password=right', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(415);
    expect(await form.json()).toEqual({ error: 'unsupported_media_type',
      message: 'Content-Type application/x-www-form-urlencoded is not accepted here; send one of: application/json.' });
    expect((await post('/auth/login', JSON.stringify({ password: 'right' }), 'Application/JSON; charset=utf-8')).status).toBe(200);
    const broken = await post('/auth/signup', '{"username"');
    expect(broken.status).toBe(400);
    expect((await broken.json() as { error: string }).error).toBe('invalid_json');
    expect((await post('/auth/signup', JSON.stringify({ username: 'x'.repeat(17 * 1024) }))).status).toBe(413);
    expect(accounts.received).toEqual([{ call: 'login', body: { password: 'right' }}]);
  });

  it('answers 405 with Allow: POST to other methods on its paths', async(): Promise<void> => {
    for (const path of [ '/auth/signup', '/auth/login' ]) {
      const response = await fetch(`${server.base}${path}`);
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toEqual({ error: 'method_not_allowed', message: `${path} takes POST only.` });
    }
  });

  it('leaves other paths to other handlers', async(): Promise<void> => {
    for (const path of [ '/auth/signup/', '/auth/logins', '/auth', '/auth/clients' ]) {
      expect({ path, declined: declined(await post(path, '{}')) }).toEqual({ path, declined: true });
    }
  });
});
