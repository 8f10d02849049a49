/** The operator's tools against a running Fedpod, as the moderation tests use them: the command line and the JSON API. */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import type { Session } from './local-actors';
import { REPO_ROOT } from './processes';

const BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');

// Answers are checked with toMatchObject and friends: any JSON.
export type Json = ReturnType<typeof JSON.parse>;

export interface CliResult { code: number; stdout: string; stderr: string }

/** Runs a `fedpod` command on the server's data directory. */
export async function cli(server: { dataDir: string }, args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [ BIN, ...args, '--data-dir', server.dataDir ], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** A JSON request with the session's token (none: anonymous); the status and the parsed answer. */
export async function api(url: string, session: Session | undefined, init: { method?: string; body?: unknown } = {}):
Promise<{ status: number; body: Json }> {
  const response = await fetch(url, { method: init.method ?? 'GET',
    headers: { ...session ? { authorization: `Bearer ${session.token}` } : {}, ...init.body ? { 'content-type': 'application/json' } : {} },
    ...init.body ? { body: JSON.stringify(init.body) } : {} });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
