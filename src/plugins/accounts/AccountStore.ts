import type { Account } from './Account';

/** Where accounts are kept. Implementations must make `create` atomic and unique by username and email. */
export interface AccountStore {
  /** Resolves false (and changes nothing) when the username or the email is taken; says which. */
  create: (account: Account) => Promise<{ created: true } | { created: false; taken: 'username' | 'email' }>;
  findByUsername: (username: string) => Promise<Account | undefined>;
  findByEmail: (email: string) => Promise<Account | undefined>;
  /** Replaces a stored account's record (same username and email); false when there is none. */
  update: (account: Account) => Promise<boolean>;
  /** Removes an account (used to undo a signup whose later steps failed). */
  remove: (username: string) => Promise<void>;
  /** Every username, for operators' tools. */
  list: () => Promise<string[]>;
}
