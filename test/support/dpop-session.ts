/**
 * A script's Solid-OIDC login as a local account: client credentials made with the account's Fedpod
 * token (POST /auth/clients), then a DPoP session of Inrupt's library with them.
 */
import { Session } from '@inrupt/solid-client-authn-node';

interface Client { id: string; secret: string; issuer: string }

/** A logged-in DPoP session of the account whose Fedpod token is `token`; kept in `sessions` to log out after. */
export async function dpopSession(baseUrl: string, account: { token: string; webId: string }, sessions: Session[], name = 'app'): Promise<Session> {
  const made = await fetch(`${baseUrl}auth/clients`, { method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${account.token}` }, body: JSON.stringify({ name }) });
  expect(made.status).toBe(201);
  const client = await made.json() as Client;
  const session = new Session();
  sessions.push(session);
  await session.login({ clientId: client.id, clientSecret: client.secret, oidcIssuer: client.issuer, tokenType: 'DPoP' });
  expect(session.info.webId).toBe(account.webId);
  return session;
}
