/**
 * Thrown from a job handler to stop retrying: the job goes straight to the dead letters.
 * Anything else a handler throws is retried with backoff until the attempts run out.
 */
export class PermanentJobError extends Error {
  public constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }

  /**
   * True for HTTP statuses that retrying cannot fix: 4xx other than 408 (Request Timeout)
   * and 429 (Too Many Requests), so 410 Gone included. 5xx and network errors are retried.
   */
  public static isPermanentStatus(status: number): boolean {
    return status >= 400 && status < 500 && status !== 408 && status !== 429;
  }

  /** Recognises the error also across module copies (jest registries, child processes). */
  public static is(error: unknown): boolean {
    return error instanceof PermanentJobError ||
      (error instanceof Error && error.name === 'PermanentJobError');
  }
}
