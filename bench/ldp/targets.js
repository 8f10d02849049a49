'use strict';

const path = require('node:path');
const { freePort } = require('../lib/ports');
const { startServer } = require('../lib/process');
const { startStockCss } = require('../lib/css');
const { fedpodCommand, startFedpod } = require('../lib/fedpod');
const { startSparqlBackend, stopSparqlBackend, storeStats } = require('../lib/sparql');
const { expectStatus } = require('../lib/http');

const BARE_SERVER = path.join(__dirname, '..', 'lib', 'bare-ldp-server.js');

// Each target's start() resolves to a session { baseUrl, info, stop() } (plus
// storeStats() when its SPARQL store can count requests) or throws; a throw
// becomes a "not available: <reason>" row, never a crash.

async function startBare({ startTimeout }) {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}/`;
  const handle = await startServer({
    name: 'bare-node',
    args: [BARE_SERVER, '--port', String(port)],
    readyUrl: `${baseUrl}healthz`,
    timeoutMs: startTimeout * 1000,
  });
  return { baseUrl, info: { pid: handle.pid, log: handle.logFile }, stop: handle.stop };
}

async function startCssMemory({ startTimeout }) {
  const port = await freePort();
  const css = await startStockCss({
    name: 'css-memory', config: 'default', port, timeoutMs: startTimeout * 1000,
  });
  return {
    baseUrl: css.baseUrl,
    info: { config: '@css:config/default.json', startMs: css.startMs, log: css.logFile },
    stop: css.stop,
  };
}

async function startCssSparql({ startTimeout, store }) {
  const backend = await startSparqlBackend({ mode: store, timeoutMs: startTimeout * 1000 });
  try {
    const port = await freePort();
    const css = await startStockCss({
      name: 'css-sparql',
      config: 'sparql-endpoint-root',
      port,
      extraArgs: ['--sparqlEndpoint', backend.endpoint],
      timeoutMs: startTimeout * 1000,
    });
    return {
      baseUrl: css.baseUrl,
      info: {
        config: '@css:config/sparql-endpoint-root.json',
        store: backend.kind,
        storeNote: backend.note,
        storeFallbackReason: backend.fallbackReason,
        endpoint: backend.endpoint,
        startMs: css.startMs,
        log: css.logFile,
      },
      storeStats: backend.statsUrl ? () => storeStats(backend) : null,
      stop: async () => {
        await css.stop();
        await stopSparqlBackend(backend);
      },
    };
  } catch (error) {
    await stopSparqlBackend(backend);
    throw error;
  }
}

// `fedpod start --config <config>` on free ports (the embedded store), or a throw saying why not.
async function startFedpodWith(config, startTimeout, name = 'fedpod') {
  const cli = await fedpodCommand('start');
  if (!cli.ok) {
    throw new Error(cli.reason);
  }
  const [port, storePort] = [await freePort(), await freePort()];
  return startFedpod({ name, config, port, storePort, timeoutMs: startTimeout * 1000 });
}

async function startFedpodLdp({ startTimeout }) {
  const fedpod = await startFedpodWith('ldp', startTimeout);
  return {
    baseUrl: fedpod.baseUrl,
    info: { config: 'ldp', startMs: fedpod.startMs, log: fedpod.logFile },
    stop: fedpod.stop,
  };
}

// The ACL the WebACL target gives its user's storage: everyone reads, appends and writes, as the
// root ACL of stock CSS's sparql-endpoint-root config does, so both answer the same anonymous requests.
function openAcl(webId) {
  return `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${webId}>; acl:mode acl:Read, acl:Write, acl:Control; acl:accessTo <./>; acl:default <./>.
<#public> a acl:Authorization; acl:agentClass <http://xmlns.com/foaf/0.1/Agent>; acl:mode acl:Read, acl:Write; acl:accessTo <./>; acl:default <./>.`;
}

async function startFedpodWac({ startTimeout }) {
  const fedpod = await startFedpodWith('ldp-wac', startTimeout, 'fedpod-wac');
  try {
    const signup = await expectStatus(`${fedpod.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', email: 'bench@example.org', password: 'correct horse battery' }) }, [201]);
    const { token, webId } = JSON.parse(signup.body);
    await expectStatus(`${fedpod.baseUrl}pods/bench/.acl`, { method: 'PUT',
      headers: { 'content-type': 'text/turtle', authorization: `Bearer ${token}` }, body: openAcl(webId) }, [201, 204, 205]);
  } catch (error) {
    await fedpod.stop();
    throw error;
  }
  return {
    baseUrl: fedpod.baseUrl,
    containerPath: 'pods/bench/',
    info: { config: 'ldp-wac', startMs: fedpod.startMs, log: fedpod.logFile },
    stop: fedpod.stop,
  };
}

const TARGETS = [
  { id: 'bare', label: 'bare', description: 'node:http + Map, no RDF (bench/lib/bare-ldp-server.js)', start: startBare },
  { id: 'css-memory', label: 'CSS-mem', description: 'stock CSS, @css:config/default.json (memory)', start: startCssMemory },
  { id: 'css-sparql', label: 'CSS-sparql', description: 'stock CSS, @css:config/sparql-endpoint-root.json', start: startCssSparql },
  { id: 'fedpod', label: 'Fedpod', description: 'fedpod start --config ldp (embedded store, public read and append)', start: startFedpodLdp },
  { id: 'fedpod-wac', label: 'Fedpod-WAC', description: 'fedpod start --config ldp-wac (embedded store, WebACL on every request)', start: startFedpodWac },
];

module.exports = { TARGETS };
