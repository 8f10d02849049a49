import type { Account } from './Account';

/**
 * Whether a token of `username`, issued at `issuedMs`, still speaks for that user: the account
 * exists (with this WebID, when given) and its password has not changed since (a change revokes
 * every token issued before it).
 */
export function tokenStillValid(account: Account | undefined, issuedMs: number, webId?: string): boolean {
  if (!account || (webId !== undefined && account.webId !== webId)) {
    return false;
  }
  return account.credentialsChanged === undefined || issuedMs >= Date.parse(account.credentialsChanged);
}
