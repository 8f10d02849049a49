'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startServer } = require('./process');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const CSS_PACKAGE = path.join(REPO_ROOT, 'node_modules', '@solid', 'community-server');
const CSS_BIN = path.join(CSS_PACKAGE, 'bin', 'server.js');

let hostDir = null;

// Components.js discovers modules by walking up from the main module path, so
// starting CSS from inside this repo would also load Fedpod's own (possibly
// unbuilt) components. A neutral directory whose node_modules links to ours
// gives a truly stock CSS, independent of the state of Fedpod's build.
function neutralHostDir() {
  if (!hostDir) {
    hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fedpod-bench-css-'));
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(hostDir, 'node_modules'), 'dir');
    fs.writeFileSync(path.join(hostDir, 'package.json'), '{"name":"bench-css-host","private":true}\n');
  }
  return hostDir;
}

function removeHostDir() {
  if (hostDir) {
    fs.rmSync(hostDir, { recursive: true, force: true });
    hostDir = null;
  }
}

/**
 * Start an unmodified Community Solid Server.
 * config: a stock config name such as 'default' or 'sparql-endpoint'.
 * Resolves to the process handle plus its baseUrl (http://localhost:<port>/).
 */
async function startStockCss({ name, config, port, extraArgs = [], timeoutMs }) {
  if (!fs.existsSync(CSS_BIN)) {
    throw new Error(`stock CSS not installed at ${CSS_BIN}`);
  }
  const cwd = neutralHostDir();
  const baseUrl = `http://localhost:${port}/`;
  const args = [
    CSS_BIN,
    '-c', `@css:config/${config}.json`,
    '-m', cwd,
    '-p', String(port),
    '-b', baseUrl,
    '-l', 'warn',
    ...extraArgs,
  ];
  const handle = await startServer({
    name,
    args,
    cwd,
    readyUrl: baseUrl,
    // Any answer below 500 means the HTTP pipeline is up.
    isReady: (res) => res.status < 500,
    timeoutMs,
  });
  return { ...handle, baseUrl };
}

function cssVersion() {
  try {
    return JSON.parse(fs.readFileSync(path.join(CSS_PACKAGE, 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

module.exports = { startStockCss, removeHostDir, cssVersion, REPO_ROOT };
