/** The operator's command line (`fedpod accounts ...`, `fedpod domain-blocks ...`) against a running test server. */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import type { FedpodServer } from './fedpod';
import { REPO_ROOT } from './processes';

const BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');

/** Runs `fedpod <args> --data-dir <the server's>`; its standard output, or an error with its standard error. */
export async function fedpodCli(server: FedpodServer, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [ BIN, ...args, '--data-dir', server.dataDir ], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`fedpod ${args.join(' ')}: ${stderr}`));
      } else {
        resolve(stdout);
      }
    });
  });
}
