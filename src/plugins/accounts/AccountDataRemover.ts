/**
 * A part of the server that keeps data of a local account beside its pod, actor and collections
 * (the Mastodon API's notifications, markers, lists, filters, followed hashtags, push subscriptions),
 * and removes it when the account is deleted (AccountDeletion's step 3). Runs again after a crash
 * cut a deletion short: removing what is already gone must succeed and change nothing.
 */
export interface AccountDataRemover {
  removeAccountData: (username: string, webId: string) => Promise<void>;
}

/** Several removers, one after the other, each as a part of the setup registers it (config). */
export class AccountDataRemovers implements AccountDataRemover {
  public constructor(private readonly removers: AccountDataRemover[] = []) {}

  public async removeAccountData(username: string, webId: string): Promise<void> {
    for (const remover of this.removers) {
      await remover.removeAccountData(username, webId);
    }
  }
}
