/**
 * One thing the server needs to serve (the store, Redis, the queues). check() resolves when it is
 * fine and rejects, with a short reason for the operator, when it is not. A check that does not
 * apply to this configuration (the local backend's empty slot) says so in `applies` and is left out.
 */
export interface ReadinessCheck {
  /** Key of the check in the readiness answer. */
  readonly name: string;
  readonly applies: boolean;
  check: () => Promise<void>;
}
