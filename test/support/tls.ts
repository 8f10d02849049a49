/**
 * TLS for federation tests: one self-signed CA and one server certificate
 * (localhost, 127.0.0.1, ::1) per test run, made with openssl in the run
 * directory, plus an HTTPS client for the test process that trusts that CA.
 *
 * Child processes (Fedpod, the Fedify peer) trust the CA through
 * NODE_EXTRA_CA_CERTS (see tlsEnv), which Node reads once at start-up: it
 * cannot be turned on in the already running jest process, so tests make
 * their own HTTPS requests with httpsRequest (an https.Agent with `ca`).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import { runDir } from './processes';

export interface TlsFiles {
  /** The CA certificate (PEM): what clients must trust. */
  caFile: string;
  /** The server certificate (PEM), signed by the CA, for localhost / 127.0.0.1 / ::1. */
  certFile: string;
  /** The server certificate's private key (PEM, unencrypted). */
  keyFile: string;
}

const SERVER_EXTENSIONS = [
  'basicConstraints = critical, CA:FALSE',
  'keyUsage = critical, digitalSignature, keyEncipherment',
  'extendedKeyUsage = serverAuth',
  'subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1',
  'subjectKeyIdentifier = hash',
  'authorityKeyIdentifier = keyid, issuer',
  '',
].join('\n');

let cached: TlsFiles | undefined;

function filesIn(dir: string): TlsFiles {
  return { caFile: path.join(dir, 'ca.pem'), certFile: path.join(dir, 'server.pem'), keyFile: path.join(dir, 'server-key.pem') };
}

function complete(files: TlsFiles): boolean {
  return Object.values(files).every((file) => fs.existsSync(file));
}

function openssl(cwd: string, args: string[]): void {
  try {
    execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`openssl ${args.join(' ')} failed: ${String(err)}\n${stderr}`);
  }
}

/** Generates CA + server certificate into `dir` (which must exist and be empty). */
function generate(dir: string): void {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, [
    'req', '-x509', ...ec, '-keyout', 'ca-key.pem', '-out', 'ca.pem', '-days', '3650', '-sha256',
    '-subj', '/CN=Fedpod test CA',
    '-addext', 'basicConstraints = critical, CA:TRUE',
    '-addext', 'keyUsage = critical, keyCertSign, cRLSign',
  ]);
  openssl(dir, ['req', '-new', ...ec, '-keyout', 'server-key.pem', '-out', 'server.csr', '-subj', '/CN=localhost']);
  fs.writeFileSync(path.join(dir, 'server.ext'), SERVER_EXTENSIONS);
  const serial = `0x${Date.now().toString(16)}${Math.floor(Math.random() * 0xffff).toString(16)}`;
  openssl(dir, [
    'x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca-key.pem', '-set_serial', serial,
    '-out', 'server.pem', '-days', '825', '-sha256', '-extfile', 'server.ext',
  ]);
}

/**
 * The run's CA and server certificate, created on first call (in any jest
 * worker) under `<run dir>/tls/`. Workers race safely: each generates into its
 * own temporary directory and renames it into place; the loser uses the
 * winner's files.
 */
export function testTls(): TlsFiles {
  if (cached !== undefined && complete(cached)) return cached;
  const dir = path.join(runDir(), 'tls');
  const files = filesIn(dir);
  if (!complete(files)) {
    const tmp = fs.mkdtempSync(path.join(runDir(), 'tls-tmp-'));
    try {
      generate(tmp);
      try {
        fs.renameSync(tmp, dir);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    if (!complete(files)) throw new Error(`TLS files missing in ${dir} after generation`);
  }
  cached = files;
  return files;
}

/** Environment for child processes that must trust the test CA. */
export function tlsEnv(tls: Pick<TlsFiles, 'caFile'>): NodeJS.ProcessEnv {
  return { NODE_EXTRA_CA_CERTS: tls.caFile };
}

const agents = new Map<string, https.Agent>();

/** An https.Agent (no keep-alive: nothing left open to hold jest) that trusts the test CA. */
export function trustingAgent(tls: Pick<TlsFiles, 'caFile'>): https.Agent {
  let agent = agents.get(tls.caFile);
  if (agent === undefined) {
    agent = new https.Agent({ ca: fs.readFileSync(tls.caFile), keepAlive: false });
    agents.set(tls.caFile, agent);
  }
  return agent;
}

export interface HttpsResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body parsed as JSON (throws with the body in the message if it is not). */
  json<T = unknown>(): T;
}

export interface HttpsRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON (content-type application/json unless set). */
  body?: unknown;
  timeoutMs?: number;
}

/** One HTTP(S) request from the test process; HTTPS trusts `tls.caFile` (default: the run's CA). */
export function httpsRequest(url: string, options: HttpsRequestOptions = {}, tls?: Pick<TlsFiles, 'caFile'>): Promise<HttpsResult> {
  const { method = 'GET', timeoutMs = 30_000 } = options;
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const hasType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
    if (typeof options.body !== 'string' && !hasType) headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const secure = new URL(url).protocol === 'https:';
    const send = secure ? https.request : http.request;
    const agent = secure ? trustingAgent(tls ?? testTls()) : false;
    const req = send(url, { method, headers, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text,
          json<T>(): T {
            try {
              return JSON.parse(text) as T;
            } catch {
              throw new Error(`${method} ${url}: ${res.statusCode} body is not JSON: ${text.slice(0, 500)}`);
            }
          },
        });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
