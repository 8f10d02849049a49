import type { Account } from '../../../../src/plugins/accounts/Account';
import type { AccountStore } from '../../../../src/plugins/accounts/AccountStore';

/** A tiny AccountStore kept in a Map; counts list() calls and can be told to fail the next one. */
export class InMemoryAccountStoreFake implements AccountStore {
  private readonly accounts = new Map<string, Account>();
  public listCalls = 0;
  public failNextList = false;

  public constructor(baseUrl: string, usernames: string[] = []) {
    for (const username of usernames) {
      this.add(baseUrl, username);
    }
  }

  public add(baseUrl: string, username: string): void {
    this.accounts.set(username, {
      username,
      email: `${username}@mail.example`,
      webId: `${baseUrl}actors/${username}`,
      passwordHash: 'not-a-hash',
      created: '2024-01-01T00:00:00.000Z',
    });
  }

  public async create(account: Account): Promise<{ created: true } | { created: false; taken: 'username' | 'email' }> {
    if (this.accounts.has(account.username)) {
      return { created: false, taken: 'username' };
    }
    if ([ ...this.accounts.values() ].some((known): boolean => known.email === account.email)) {
      return { created: false, taken: 'email' };
    }
    this.accounts.set(account.username, account);
    return { created: true };
  }

  public async findByUsername(username: string): Promise<Account | undefined> {
    return this.accounts.get(username);
  }

  public async findByEmail(email: string): Promise<Account | undefined> {
    return [ ...this.accounts.values() ].find((account): boolean => account.email === email);
  }

  public async update(account: Account): Promise<boolean> {
    if (this.accounts.get(account.username)?.email !== account.email) {
      return false;
    }
    this.accounts.set(account.username, account);
    return true;
  }

  public async remove(username: string): Promise<void> {
    this.accounts.delete(username);
  }

  public async list(): Promise<string[]> {
    this.listCalls += 1;
    if (this.failNextList) {
      this.failNextList = false;
      throw new Error('disk on fire');
    }
    return [ ...this.accounts.keys() ];
  }
}
