import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { getLoggerFor, Initializer } from '@solid/community-server';
import { writeFileDurably } from '../../util/DurableFiles';
import type { OperatorFile } from './OperatorFile';
import { OPERATOR_FILE } from './OperatorFile';

function digestOf(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * The operator's credentials for one run of the server: a random secret, written with the server's
 * base URL and local address to `<data-dir>/operator.json` (mode 0600, readable by the account that
 * runs the server, as the data directory is) at start-up. The `fedpod webhooks` commands read it to
 * ask the running server, which mints URIs under its own base URL; once the server has stopped, the
 * file still tells them that base URL (the secret then opens nothing: each run makes its own).
 * Nothing else can reach the operator routes: the secret is never served or logged.
 */
export class OperatorSecret extends Initializer {
  protected readonly logger = getLoggerFor(this);
  private readonly secret = randomBytes(32).toString('base64url');
  private readonly digest = digestOf(this.secret);
  private readonly file: string;

  /**
   * @param host - The address the HTTP server binds (empty: every interface, reached on loopback).
   */
  public constructor(
    dataDir: string,
    private readonly baseUrl: string,
    private readonly port: number,
    private readonly host = '',
  ) {
    super();
    this.file = join(dataDir, OPERATOR_FILE);
  }

  /** Whether `token` is this run's operator secret (compared in constant time). */
  public matches(token: string): boolean {
    return timingSafeEqual(digestOf(token), this.digest);
  }

  public async handle(): Promise<void> {
    const host = this.host && this.host !== '0.0.0.0' && this.host !== '::' ? this.host : '127.0.0.1';
    const contents: OperatorFile = {
      baseUrl: this.baseUrl,
      localUrl: `http://${host.includes(':') ? `[${host}]` : host}:${this.port}/`,
      secret: this.secret,
      pid: process.pid,
    };
    await writeFileDurably(this.file, `${JSON.stringify(contents, null, 2)}\n`, 0o600);
  }
}
