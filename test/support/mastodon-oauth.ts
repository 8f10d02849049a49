/**
 * An app's OAuth login as Mastodon apps do it, for tests: the app registers, a cookie-keeping
 * browser logs the user in on Fedpod's page and allows the app, and the code is exchanged with PKCE.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Browser } from './cookie-browser';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const CALLBACK = 'http://localhost:9/callback';

const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/u.exec(html)![1];

/** The access token an app gets for `username` (whose password is `password`) with `scope`. */
export async function appToken(baseUrl: string, username: string, password: string, scope: string): Promise<string> {
  const registered = await fetch(`${baseUrl}api/v1/apps`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: `app of ${username}`, redirect_uris: CALLBACK, scopes: scope }) });
  expect(registered.status).toBe(200);
  const app = await registered.json() as { client_id: string; client_secret: string };
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({ response_type: 'code', client_id: app.client_id, redirect_uri: CALLBACK, scope,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' });
  const url = `${baseUrl}oauth/authorize?${query.toString()}`;
  const browser = new Browser();
  const loginPage = await (await browser.open(url)).text();
  const consentPage = await (await browser.open(url, { method: 'POST', headers: FORM,
    body: new URLSearchParams({ csrf: csrfOf(loginPage), action: 'login', login: username, password }).toString() })).text();
  const allowed = await browser.open(url, { method: 'POST', headers: FORM,
    body: new URLSearchParams({ csrf: csrfOf(consentPage), action: 'consent' }).toString() });
  expect(allowed.status).toBe(303);
  const code = new URL(allowed.headers.get('location')!).searchParams.get('code')!;
  const exchanged = await fetch(`${baseUrl}oauth/token`, { method: 'POST', headers: FORM, body: new URLSearchParams({
    grant_type: 'authorization_code', code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: CALLBACK,
    code_verifier: verifier }).toString() });
  expect(exchanged.status).toBe(200);
  return (await exchanged.json() as { access_token: string }).access_token;
}
