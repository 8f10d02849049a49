/** The message of anything thrown: an Error's message, else its string form. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The system error code (ENOENT, ECONNRESET, ...) of a thrown Node.js error, if it has one. */
export function errnoOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** The HTTP status a thrown error carries (Fedpod's and CSS's HTTP errors: `statusCode`), if any. */
export function statusOf(error: unknown): number | undefined {
  const status = typeof error === 'object' && error !== null ? (error as { statusCode?: unknown }).statusCode : undefined;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Runs `work` with errors made without stack frames, then puts the limit back. An error keeps the
 * frames it was made in (each with its `this`) until its `stack` is first read, so an error made
 * while something large is being built keeps that alive for as long as the error lives.
 */
export async function withoutStackFrames<T>(work: () => Promise<T>): Promise<T> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return await work();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
