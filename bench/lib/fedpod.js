'use strict';

const { execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startServer } = require('./process');
const { REPO_ROOT } = require('./css');

// BENCH_FEDPOD_ROOT points at another (built) checkout, e.g. to compare branches.
const FEDPOD_ROOT = process.env.BENCH_FEDPOD_ROOT ? path.resolve(process.env.BENCH_FEDPOD_ROOT) : REPO_ROOT;
const FEDPOD_BIN = path.join(FEDPOD_ROOT, 'bin', 'fedpod.js');
const HELP_TIMEOUT_MS = 30000;

const tempDirs = [];

// A scratch data directory, removed by removeTempDirs() at the end of a run.
function makeDataDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `fedpod-bench-${prefix}-`));
  tempDirs.push(dir);
  return dir;
}

function removeTempDirs() {
  while (tempDirs.length > 0) {
    fs.rmSync(tempDirs.pop(), { recursive: true, force: true });
  }
}

// `fedpod <command> --help`, bounded in time. Resolves to its text or throws.
function helpText(command, root) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(root, 'bin', 'fedpod.js'), command, '--help'],
      { cwd: root, timeout: HELP_TIMEOUT_MS },
      (error, stdout, stderr) => {
        if (error) {
          const detail = `${stderr}${stdout}`.trim().split('\n').slice(-3).join(' | ');
          reject(new Error(`\`fedpod ${command} --help\` failed: ${detail || error.message}`));
        } else {
          resolve(`${stdout}${stderr}`);
        }
      });
  });
}

/**
 * Can the Fedpod CLI run `command`? Resolves to { ok, reason, help }.
 * Never throws: an unavailable Fedpod becomes a reason string for the table.
 */
async function fedpodCommand(command, root = FEDPOD_ROOT) {
  const bin = path.join(root, 'bin', 'fedpod.js');
  if (!fs.existsSync(bin)) {
    return { ok: false, reason: `${path.relative(process.cwd(), bin) || bin} does not exist` };
  }
  try {
    const help = await helpText(command, root);
    return { ok: true, reason: '', help };
  } catch (error) {
    return { ok: false, reason: error.message };
  }
}

/** Start `fedpod start --config <config>` and wait for GET /healthz = 200. */
/**
 * Start `fedpod start` (without rate limits unless `rateLimits`). Nodes of one deployment share `dataDir` and `baseUrl` (then `readyUrl` is
 * the node's own /healthz); `prefix` runs it under another command, e.g. ['chrt', '--idle', '0']; `env` adds variables.
 */
async function startFedpod({ name = 'fedpod', config, port, storePort, timeoutMs, extraArgs = [], dataDir, baseUrl, prefix = [],
  root = FEDPOD_ROOT, rateLimits = false, env = {} }) {
  const publicBase = baseUrl || `http://localhost:${port}/`;
  const args = [
    path.join(root, 'bin', 'fedpod.js'), 'start',
    '--config', config,
    '--port', String(port),
    '--base-url', publicBase,
    '--data-dir', dataDir || makeDataDir('fedpod'),
    '--store-port', String(storePort),
    ...extraArgs,
  ];
  const handle = await startServer({
    name, cwd: root, readyUrl: `http://localhost:${port}/healthz`, timeoutMs,
    // A load from one address is what rate limits stop: off unless the bench measures them (bench/rate-limits).
    env: { FEDPOD_RATE_LIMITS: rateLimits ? 'true' : 'false', ...env },
    ...prefix.length > 0 ? { command: prefix[0], args: [ ...prefix.slice(1), process.execPath, ...args ] } : { args },
  });
  return { ...handle, baseUrl: publicBase };
}

// Flags of `fedpod store` as its --help spells them: the port flag, and a way
// to let unauthenticated clients (CSS cannot send credentials) read and write.
function storeFlags(help) {
  const portFlag = help.includes('--store-port') ? '--store-port' : '--port';
  let anonymousFlags = [];
  if (help.includes('--no-auth')) {
    anonymousFlags = ['--no-auth'];
  } else if (help.includes('--anonymous-access')) {
    anonymousFlags = ['--anonymous-access', 'all'];
  }
  return { portFlag, anonymousFlags };
}

/**
 * Start Fedpod's embedded, Fuseki-compatible store on its own (`fedpod store`).
 * `help` is the command's --help text, used to pick the right flags.
 */
async function startFedpodStore({ name = 'fedpod-store', port, help, timeoutMs }) {
  const { portFlag, anonymousFlags } = storeFlags(help);
  const args = [
    FEDPOD_BIN, 'store', portFlag, String(port), '--data-dir', makeDataDir('store'), ...anonymousFlags,
  ];
  const baseUrl = `http://127.0.0.1:${port}/`;
  const handle = await startServer({
    name,
    args,
    cwd: FEDPOD_ROOT,
    readyUrl: `${baseUrl}$/ping`,
    timeoutMs,
  });
  return { ...handle, baseUrl, flags: args.slice(2).join(' ') };
}

module.exports = {
  FEDPOD_BIN, fedpodCommand, startFedpod, startFedpodStore, makeDataDir, removeTempDirs,
};
