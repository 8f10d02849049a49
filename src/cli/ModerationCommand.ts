import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './Console';
import { readOperatorFile } from './WebhooksCommand';
import { messageOf } from '../util/Errors';

export type ModerationCommandName = 'domain-blocks list' | 'domain-blocks add' | 'domain-blocks remove' | 'domain-blocks import' |
  'domain-blocks export' | 'accounts role' | 'audit-log' | 'accounts action' | 'reports list' | 'reports show' | 'reports resolve' |
  'reports reopen';
type Argv = Record<string, unknown>;

interface Request {
  path: string;
  method?: string;
  body?: string;
  contentType?: string;
}

/** The operator route and body of a command. */
function requestOf(command: ModerationCommandName, argv: Argv): Request {
  const json = (body: Record<string, unknown>): Pick<Request, 'body' | 'contentType'> =>
    ({ body: JSON.stringify(body), contentType: 'application/json' });
  switch (command) {
    case 'domain-blocks list':
      return { path: 'operator/domain-blocks' };
    case 'domain-blocks export':
      return { path: 'operator/domain-blocks?format=csv' };
    case 'domain-blocks add':
      return { path: 'operator/domain-blocks', method: 'POST', ...json({
        domain: argv.domain, severity: argv.severity, reject_media: argv['reject-media'], reject_reports: argv['reject-reports'],
        public_comment: argv['public-comment'], private_comment: argv['private-comment'], obfuscate: argv.obfuscate,
      }) };
    case 'domain-blocks remove':
      return { path: 'operator/domain-blocks', method: 'DELETE', ...json({ domain: argv.domain }) };
    case 'domain-blocks import': {
      let csv: string;
      try {
        csv = readFileSync(String(argv.file), 'utf8');
      } catch (error: unknown) {
        throw new UsageError(`cannot read ${String(argv.file)}: ${messageOf(error)}`);
      }
      return { path: 'operator/domain-blocks/import', method: 'POST', body: csv, contentType: 'text/csv' };
    }
    case 'accounts role':
      return { path: 'operator/roles', method: 'POST', ...json({ user: argv.user, role: argv.role }) };
    case 'accounts action':
      return { path: 'operator/account-moderation', method: 'POST', ...json({ account: argv.account, action: argv.action, report: argv.report }) };
    case 'reports list':
      return { path: `operator/reports${argv.all ? '?all=true' : ''}` };
    case 'reports show':
      return { path: `operator/reports/${encodeURIComponent(String(argv.id))}` };
    case 'reports resolve':
    case 'reports reopen':
      return { path: `operator/reports/${encodeURIComponent(String(argv.id))}`, method: 'POST',
        ...json({ state: command === 'reports resolve' ? 'resolve' : 'reopen' }) };
    default:
      return { path: `operator/audit-log?limit=${Number(argv.limit ?? 100)}` };
  }
}

/** What a command prints of the server's answer. */
function print(command: ModerationCommandName, answer: unknown, text: string): void {
  const out = (line: string): boolean => process.stdout.write(`${line}\n`);
  if (command === 'domain-blocks export') {
    process.stdout.write(text);
  } else if (command === 'domain-blocks list') {
    for (const block of answer as Record<string, unknown>[]) {
      out([ block.domain, block.severity, block.rejectMedia ? 'reject_media' : '', block.publicComment ?? '', block.privateComment ?? '' ]
        .map(String).join('\t'));
    }
  } else if (command === 'audit-log') {
    for (const entry of answer as Record<string, unknown>[]) {
      out([ entry.at, entry.by, entry.action, entry.target, entry.detail ? JSON.stringify(entry.detail) : '' ].map(String).join('\t'));
    }
  } else if (command === 'domain-blocks import') {
    out(`imported ${String((answer as { imported: number }).imported)} domain blocks`);
  } else if (command === 'reports list') {
    for (const report of answer as Record<string, unknown>[]) {
      out([ report.id, report.created, report.resolved ? 'resolved' : 'open', report.category, report.target, report.reporter,
        JSON.stringify(report.comment) ].map(String).join('\t'));
    }
  } else if (command === 'reports show') {
    out(JSON.stringify(answer, undefined, 2));
  } else if (command === 'reports resolve' || command === 'reports reopen') {
    const report = answer as { id: string; resolved?: string };
    out(`report ${report.id}: ${report.resolved ? 'resolved' : 'open'}`);
  } else if (command === 'accounts action') {
    const record = answer as Record<string, unknown>;
    const on = [ 'suspended', 'silenced', 'sensitive', 'disabled' ].filter((measure): boolean => record[measure] !== undefined);
    out(`${String(record.actor)}: ${on.length > 0 ? on.join(', ') : 'active'}`);
  } else if (command === 'accounts role') {
    const { user, role, changed } = answer as { user: string; role: string; changed: boolean };
    out(`${user}: ${role}${changed ? '' : ' (unchanged)'}`);
  } else {
    const block = answer as { domain: string; severity: string };
    out(`${command === 'domain-blocks remove' ? 'removed' : 'blocked'} ${block.domain} (${block.severity})`);
  }
}

/**
 * `fedpod domain-blocks ...`, `fedpod accounts role|suspend|silence|...`, `fedpod reports ...`, `fedpod audit-log`: the operator's moderation
 * commands, answered by the server running on the data directory (its operator routes, with the
 * secret it wrote there), so that every node sees a change at once. Without a running server they
 * fail: moderation state is only changed through a server. Resolves with the exit code.
 */
export async function runModeration(command: ModerationCommandName, argv: Argv): Promise<number> {
  const dataDir = resolve(String(argv['data-dir']));
  const operator = readOperatorFile(dataDir);
  if (!operator) {
    process.stderr.write(`fedpod ${command}: no server has run on ${dataDir}; start it first\n`);
    return 1;
  }
  const request = requestOf(command, argv);
  let answer: Response;
  try {
    answer = await fetch(new URL(request.path, operator.localUrl), { method: request.method ?? 'GET', body: request.body,
      headers: { authorization: `Bearer ${operator.secret}`, ...request.contentType ? { 'content-type': request.contentType } : {}},
      signal: AbortSignal.timeout(60_000) });
  } catch (error: unknown) {
    const code = ((error as { cause?: { code?: string } }).cause)?.code;
    process.stderr.write(`fedpod ${command}: the server at ${operator.localUrl} (pid ${operator.pid}) did not answer: ${code ?? messageOf(error)}\n`);
    return 1;
  }
  const text = await answer.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!answer.ok) {
    const reason = (body as { message?: string } | undefined)?.message;
    process.stderr.write(`fedpod ${command}: ${answer.status === 404 && !reason ? 'no server with this data directory\'s secret answers' :
      reason ?? `HTTP ${answer.status}`}\n`);
    return 1;
  }
  print(command, body, text);
  return 0;
}
