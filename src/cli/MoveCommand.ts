import { useLogFormat } from './Console';
import { MOVE_FLAGS } from './Flags';
import { plainError } from './PlainErrors';
import { checkFlags, checkReachable } from './Preflight';

type Argv = Record<string, unknown>;

/**
 * What `fedpod export` and `fedpod import` do around their work: the log format, the flags checked,
 * the store reachable before anything is read or written, and any failure as one plain message.
 * Resolves with the exit code `work` gives.
 */
export async function runMoveCommand(argv: Argv, work: (argv: Argv) => Promise<number>): Promise<number> {
  useLogFormat(argv['log-format']);
  checkFlags(MOVE_FLAGS, argv);
  const endpoint = String(argv['sparql-endpoint'] ?? '').trim();
  if (endpoint) {
    await checkReachable('sparql-endpoint', endpoint);
  }
  try {
    return await work(argv);
  } catch (error: unknown) {
    throw plainError(error);
  }
}
