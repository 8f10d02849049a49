import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OperatorFile } from '../plugins/operator/OperatorFile';
import { OPERATOR_FILE } from '../plugins/operator/OperatorFile';
import { UsageError } from './Console';
import { chooseBackend } from './Preflight';
import { configFileOf, ROOT, setupFilesOf } from './Setups';
import { messageOf } from '../util/Errors';

export type WebhooksCommandName = 'generate' | 'list' | 'revoke' | 'dead-letters';
type Argv = Record<string, unknown>;

/** `<data-dir>/operator.json` of a server that ran on this data directory, or undefined (see OperatorSecret). */
export function readOperatorFile(dataDir: string): OperatorFile | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, OPERATOR_FILE), 'utf8')) as OperatorFile;
  } catch {
    return undefined;
  }
}

interface OperatorAnswer {
  id?: string;
  iri?: string;
  user?: string;
  action?: string;
  created?: string;
  error?: string;
  message?: string;
}

/**
 * A webhooks command answered by the running server (its operator route, with the secret it wrote
 * to the data directory): fast, and every URI minted under the server's own base URL. Resolves
 * with the exit code, or with undefined when no server answers there.
 */
async function askRunningServer(operator: OperatorFile, command: WebhooksCommandName, argv: Argv): Promise<number | undefined> {
  const url = new URL('operator/webhooks', operator.localUrl);
  const init: RequestInit = { headers: { authorization: `Bearer ${operator.secret}`, 'content-type': 'application/json' },
    signal: AbortSignal.timeout(10_000) };
  if (command === 'list' && argv.user) {
    url.searchParams.set('user', String(argv.user));
  } else if (command === 'generate') {
    Object.assign(init, { method: 'POST', body: JSON.stringify({ user: argv.user, action: argv.action }) });
  } else if (command === 'revoke') {
    Object.assign(init, { method: 'DELETE', body: JSON.stringify({ uri: argv.uri }) });
  }
  let answer: Response;
  try {
    answer = await fetch(url, init);
  } catch (error: unknown) {
    const code = ((error as { cause?: { code?: string } }).cause)?.code;
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET') {
      return undefined;
    }
    throw new UsageError(`the server at ${operator.localUrl} (pid ${operator.pid}) did not answer: ${code ?? messageOf(error)}`);
  }
  const body = await answer.json().catch((): OperatorAnswer => ({})) as OperatorAnswer | OperatorAnswer[];
  if (answer.status === 404 && !Array.isArray(body) && body.error === 'not_found') {
    // Another server now holds that port, or this one no longer takes that secret.
    return undefined;
  }
  if (!answer.ok || Array.isArray(body) !== (command === 'list')) {
    const reason = Array.isArray(body) ? undefined : body.message;
    process.stderr.write(`fedpod webhooks ${command}: ${reason ?? `HTTP ${answer.status}`}\n`);
    return 1;
  }
  if (Array.isArray(body)) {
    for (const record of body) {
      process.stdout.write(`${[ record.iri, record.user, record.action, record.created ].join('\t')}\n`);
    }
  } else if (command === 'generate') {
    process.stdout.write(`${body.id}\n`);
  } else {
    process.stdout.write(`revoked ${body.iri} (${body.action} for ${body.user})\n`);
  }
  return 0;
}

/**
 * `fedpod webhooks <command>`: the operator's console for incoming webhooks. Asks the server running
 * on the data directory when there is one; otherwise opens the data directory itself (slower: it
 * loads the server's config; plugins/webhooks/WebhookCli.ts), minting under the base URL the server
 * last used there unless --base-url says otherwise. Resolves with the exit code.
 */
export async function runWebhooks(command: WebhooksCommandName, argv: Argv): Promise<number> {
  const dataDir = resolve(String(argv['data-dir']));
  // Checked before asking a server, so that the same flags fail the same way with or without one.
  const backend = chooseBackend(argv.backend, String(argv['redis-url'] ?? ''), configFileOf(String(argv.config)));
  const operator = readOperatorFile(dataDir);
  if (command !== 'dead-letters') {
    if (operator) {
      const code = await askRunningServer(operator, command, argv);
      if (code !== undefined) {
        return code;
      }
      process.stderr.write(`fedpod webhooks: no server answers at ${operator.localUrl} (the one that last ran on ${dataDir}); working on the data directory directly\n`);
    } else {
      process.stderr.write(`fedpod webhooks: no running server found for ${dataDir}; working on the data directory directly\n`);
    }
  }
  const { runWebhookCommand } = await import('../plugins/webhooks/WebhookCli');
  return runWebhookCommand({
    command,
    user: argv.user as string | undefined,
    action: argv.action as string | undefined,
    uri: argv.uri as string | undefined,
    limit: argv.limit as number | undefined,
    root: ROOT,
    configFiles: setupFilesOf(String(argv.config), backend),
    backend,
    baseUrl: String(argv['base-url'] || operator?.baseUrl || `http://localhost:${String(argv.port)}/`),
    dataDir,
    sparqlEndpoint: String(argv['sparql-endpoint'] ?? ''),
    dataset: String(argv.dataset),
    storePort: Number(argv['store-port']),
    sparqlUser: String(argv['sparql-user']),
    sparqlPassword: String(argv['sparql-password']),
    redisUrl: String(argv['redis-url'] ?? ''),
    tokenLifetime: argv['token-lifetime'] as number | undefined,
    retryBaseDelay: argv['retry-base-delay'] as number | undefined,
  });
}
