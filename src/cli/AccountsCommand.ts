import { resolve } from 'node:path';
import { messageOf } from '../util/Errors';
import { UsageError } from './Console';
import { readOperatorFile } from './WebhooksCommand';

export type AccountsCommandName = 'pending' | 'approve' | 'reject' | 'reset-password' | 'delete' | 'invite' | 'invites';
type Argv = Record<string, unknown>;

/** The operator route and request of a command. */
function requestOf(command: AccountsCommandName, argv: Argv): { path: string; method: string; body?: unknown } {
  const user = encodeURIComponent(String(argv.user ?? ''));
  switch (command) {
    case 'pending':
      return { path: 'operator/accounts/pending', method: 'GET' };
    case 'approve':
    case 'reject':
    case 'reset-password':
    case 'delete':
      return { path: `operator/accounts/${user}/${command}`, method: 'POST' };
    case 'invite':
      return { path: 'operator/invites', method: 'POST',
        body: { maxUses: argv['max-uses'] ?? undefined, expiresInSeconds: argv['expires-in'] ?? undefined }};
    default:
      return { path: 'operator/invites', method: 'GET' };
  }
}

/**
 * `fedpod accounts <command>`: the operator's approval queue and invite codes, answered by the server
 * running on the data directory (its operator routes, with the secret it wrote there); the accounts
 * live with that server, so with none running this says so and exits 1. Resolves with the exit code.
 */
export async function runAccounts(command: AccountsCommandName, argv: Argv): Promise<number> {
  const dataDir = resolve(String(argv['data-dir']));
  const operator = readOperatorFile(dataDir);
  if (!operator) {
    throw new UsageError(`no server has run on ${dataDir}: start it, then run this again`);
  }
  const { path, method, body } = requestOf(command, argv);
  let answer: Response;
  try {
    answer = await fetch(new URL(path, operator.localUrl), { method, signal: AbortSignal.timeout(10_000),
      headers: { authorization: `Bearer ${operator.secret}`, 'content-type': 'application/json' },
      ...body === undefined ? {} : { body: JSON.stringify(body) }});
  } catch (error: unknown) {
    const code = ((error as { cause?: { code?: string } }).cause)?.code;
    throw new UsageError(`the server at ${operator.localUrl} (the one that last ran on ${dataDir}) did not answer: ${code ?? messageOf(error)}`);
  }
  const result = await answer.json().catch((): unknown => ({})) as unknown;
  if (!answer.ok) {
    const message = (result as { message?: string }).message;
    process.stderr.write(`fedpod accounts ${command}: ${message ?? `HTTP ${answer.status}`}\n`);
    return 1;
  }
  if (Array.isArray(result)) {
    for (const entry of result) {
      process.stdout.write(`${JSON.stringify(entry)}\n`);
    }
  } else if (command === 'invite') {
    process.stdout.write(`${(result as { code: string }).code}\n`);
  } else if (command === 'reset-password') {
    process.stdout.write(`${(result as { password: string }).password}\n`);
  } else if (command === 'delete') {
    process.stdout.write(`${(result as { username: string }).username}: deleted\n`);
  } else {
    const { username, status } = result as { username: string; status: string };
    process.stdout.write(`${username}: ${status === 'active' ? 'approved' : status}\n`);
  }
  return 0;
}
