import type { WebIdStore } from '@solid/community-server';
import type { AccountStore } from './AccountStore';

/**
 * CSS's WebIdStore over Fedpod's accounts: each account has exactly one WebID, its actor, and the
 * account id is the username. CSS's OpenID provider asks it whether client credentials still belong
 * to the WebID they were made for. Links are made by signup only, so create and delete refuse.
 */
export class AccountWebIdLinks implements WebIdStore {
  public constructor(private readonly accounts: AccountStore) {}

  public async get(linkId: string): Promise<{ accountId: string; webId: string } | undefined> {
    const account = await this.accounts.findByUsername(linkId);
    return account && { accountId: account.username, webId: account.webId };
  }

  public async isLinked(webId: string, accountId: string): Promise<boolean> {
    return (await this.accounts.findByUsername(accountId))?.webId === webId;
  }

  public async findLinks(accountId: string): Promise<{ id: string; webId: string }[]> {
    const account = await this.accounts.findByUsername(accountId);
    return account ? [{ id: account.username, webId: account.webId }] : [];
  }

  public async create(): Promise<string> {
    throw new Error('A Fedpod account has one WebID, its actor, given at signup.');
  }

  public async delete(): Promise<void> {
    throw new Error('A Fedpod account has one WebID, its actor, given at signup.');
  }
}
