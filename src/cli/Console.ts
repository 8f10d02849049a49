/** A wrong combination of flags or an unusable value: said in one line, without a stack. */
export class UsageError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * The log format a `--log-format` value stands for: `auto` (the default) is readable lines on a
 * terminal, where a person reads them, and JSON lines anywhere else (a service manager, a pipe, a
 * file), where a log collector does.
 */
export function resolveLogFormat(value: unknown): 'json' | 'pretty' {
  if (value === 'json' || value === 'pretty') {
    return value;
  }
  return process.stdout.isTTY ? 'pretty' : 'json';
}

let format = resolveLogFormat(process.env.FEDPOD_LOG_FORMAT);

/** How `say` writes: as the server's JSON log lines, or readable text (--log-format); the format chosen. */
export function useLogFormat(value: unknown): 'json' | 'pretty' {
  format = resolveLogFormat(value);
  return format;
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
