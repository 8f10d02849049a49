/** A wrong combination of flags or an unusable value: said in one line, without a stack. */
export class UsageError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

let format: 'json' | 'pretty' = process.env.FEDPOD_LOG_FORMAT === 'pretty' ? 'pretty' : 'json';

/** How `say` writes: as the server's JSON log lines, or readable text (--log-format). */
export function useLogFormat(value: unknown): void {
  format = value === 'pretty' ? 'pretty' : 'json';
}

/** A start-up line on stdout: a JSON log line like the server's (component "fedpod"), or readable text. */
export function say(message: string, level = 'info'): void {
  process.stdout.write(format === 'json' ?
    `${JSON.stringify({ level, time: new Date().toISOString(), pid: process.pid, component: 'fedpod', msg: message })}\n` :
    `[fedpod] ${message}\n`);
}

/** Ends the command with exit code 1 and one line on stderr (the stack only for what is not a UsageError). */
export function fail(error: unknown): never {
  const text = error instanceof UsageError ? error.message : error instanceof Error && error.stack ? error.stack : String(error);
  process.stderr.write(`[fedpod] error: ${text}\n`);
  process.exit(1);
}
