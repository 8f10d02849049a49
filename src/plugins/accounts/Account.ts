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
}
