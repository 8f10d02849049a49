/**
 * Which local accounts may not log in or use their tokens (an operator's suspension, or a disabled
 * login): asked by the login. Declared here, below its users, and implemented by the moderation
 * plugin (AccountModerations).
 */
export interface LoginPolicy {
  /** Whether the account of this actor IRI is locked out. */
  isLocked: (actor: string) => Promise<boolean>;
}
