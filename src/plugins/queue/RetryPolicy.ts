/**
 * How often and how long a failing job is retried: `attempts` runs in all, the wait
 * after failed run n being baseDelayMs * 2^(n-1), capped at maxDelayMs, then shortened
 * by a random fraction of at most `jitter` so that jobs that failed together do not
 * all come back together.
 *
 * The default, 15 runs from 30 s with waits capped at 12 h, spreads 14 retries over
 * 53.1 h without jitter and about 48 h on average with the default jitter of 0.2
 * (between 42.5 h and 53.1 h).
 */
export class RetryPolicy {
  public static readonly defaultAttempts = 15;
  public static readonly defaultBaseDelayMs = 30_000;
  public static readonly defaultMaxDelayMs = 12 * 60 * 60 * 1000;
  public static readonly defaultJitter = 0.2;

  public constructor(
    public readonly attempts: number = RetryPolicy.defaultAttempts,
    public readonly baseDelayMs: number = RetryPolicy.defaultBaseDelayMs,
    public readonly maxDelayMs: number = RetryPolicy.defaultMaxDelayMs,
    public readonly jitter: number = RetryPolicy.defaultJitter,
  ) {
    if (!Number.isInteger(attempts) || attempts < 1) {
      throw new Error(`Retry attempts must be an integer >= 1, not ${attempts}`);
    }
    if (!Number.isFinite(baseDelayMs) || baseDelayMs < 0) {
      throw new Error(`Retry base delay must be >= 0 ms, not ${baseDelayMs}`);
    }
    if (!Number.isFinite(maxDelayMs) || maxDelayMs < baseDelayMs) {
      throw new Error(`Retry max delay must be >= the base delay (${baseDelayMs} ms), not ${maxDelayMs}`);
    }
    if (!Number.isFinite(jitter) || jitter < 0 || jitter > 1) {
      throw new Error(`Retry jitter must be between 0 and 1, not ${jitter}`);
    }
  }

  /** Whether a job whose run number `attempt` (1-based) failed gets another run. */
  public shouldRetry(attempt: number): boolean {
    return attempt < this.attempts;
  }

  /** Wait before the next run, in ms, the jitter not applied. */
  public nominalDelay(attempt: number): number {
    const exponent = Math.max(0, attempt - 1);
    // 2^exponent overflows to Infinity for large exponents, which the cap handles.
    return Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** exponent);
  }

  /** Wait in ms after failed run number `attempt` (1-based), jitter applied. */
  public delay(attempt: number, random: () => number = Math.random): number {
    return Math.round(this.nominalDelay(attempt) * (1 - this.jitter * random()));
  }

  /** Sum of all waits without jitter: the longest a job can stay in the retry cycle. */
  public totalNominalDelayMs(): number {
    let total = 0;
    for (let attempt = 1; attempt < this.attempts; attempt += 1) {
      total += this.nominalDelay(attempt);
    }
    return total;
  }
}
