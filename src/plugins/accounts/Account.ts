/** A local user: what signup stores and login checks. The actor document lives in the triple store. */
export interface Account {
  /** Lowercase letters, digits, '-', '_', '.'; 1-64 characters. */
  username: string;
  /** Lowercased. */
  email: string;
  /** The actor IRI: {base}actors/<username>. */
  webId: string;
  /** Password hash in PHC-like form (see PasswordHasher); never the password. */
  passwordHash: string;
  /** ISO date-time. */
  created: string;
  /**
   * `pending`: signed up while registrations need approval, and not approved yet (cannot log in).
   * Absent: an active account (every account made before there were states).
   */
  status?: 'pending';
  /** Why they want to join, as the signup said (registrations with approval). */
  reason?: string;
  /** The invite code the account signed up with. */
  invite?: string;
  /**
   * While the email address is not confirmed (signup with `--smtp-url`): the SHA-256 of the one-time
   * token the confirmation link carries (hex) and when it expires. The account cannot log in.
   */
  confirmation?: { digest: string; expiresAt: string };
  /**
   * ISO date-time of the last password change or reset: every token issued before it (Fedpod's, a
   * Mastodon app's) is refused from then on.
   */
  credentialsChanged?: string;
  /**
   * While a password reset mailed to the account is open: the SHA-256 of the link's one-time token
   * (hex) and when it expires. Cleared when used.
   */
  passwordReset?: { digest: string; expiresAt: string };
  /**
   * Set when the account's deletion began (AccountDeletion): when, the id of the actor's Delete,
   * whether that was queued, whether the data is gone. The record stays, so the name is not reused.
   */
  deleted?: { at: string; activity: string; enqueued?: boolean; done?: boolean };
}
