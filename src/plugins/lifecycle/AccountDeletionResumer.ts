import { Initializer } from '@solid/community-server';
import type { AccountDeletion } from './AccountDeletion';

/** At start-up: finishes the account deletions a crash or a stop interrupted. */
export class AccountDeletionResumer extends Initializer {
  public constructor(private readonly deletion: AccountDeletion) {
    super();
  }

  public async handle(): Promise<void> {
    await this.deletion.resumeAll();
  }
}
