/** What an action receives for one POST to a webhook. */
export interface WebhookActionInput {
  /** WebID of the user the webhook was generated for. */
  user: string;
  /** That user's username. */
  username: string;
  /** The posted JSON, parsed (any shape: object, array, scalar, null). */
  data: unknown;
  /**
   * The job's id: the same on every run of one POST (jobs run at least once, so a retry or a run
   * again after a crash sees the same id). Actions use it to make their effect idempotent.
   */
  jobId: string;
  /** ISO 8601 time the POST was accepted. */
  receivedAt: string;
}

/**
 * An action a webhook can be bound to. Actions are components contributed through config (see
 * config/parts/webhooks/default.json) and collected by WebhookActionRegistry.
 *
 * run() is retried with backoff when it throws; a PermanentJobError is not retried (the job becomes a
 * dead letter at once).
 */
export interface WebhookAction {
  /** The name a webhook is generated with, e.g. `post-to-outbox`. */
  readonly name: string;
  run: (input: WebhookActionInput) => Promise<void>;
}
