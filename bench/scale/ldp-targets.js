'use strict';

// The two servers bench/scale grows a container in: Fedpod's `ldp` setup (embedded store) and stock
// CSS on its file backend (`file-root`: a root container with a public ACL, like `default` but on
// disk, so it can be restarted on its data and its size measured). Each keeps its data directory
// across restarts. A session is { label, baseUrl, containerUrl, dataDir, pid(), startMs, restart(),
// stop(), lastPage(firstUrl) }.

const { freePort } = require('../lib/ports');
const { startServer } = require('../lib/process');
const { startStockCss } = require('../lib/css');
const { fedpodCommand, FEDPOD_BIN, makeDataDir } = require('../lib/fedpod');
const { request, expectStatus } = require('../lib/http');
const path = require('node:path');

const FEDPOD_ROOT = path.resolve(path.dirname(FEDPOD_BIN), '..');
const JSON_LD = 'application/ld+json';
const MAX_PAGES = 100000;

/** The target of a `Link: <…>; rel="next"` header, or null. */
function nextLink(headers, baseUrl) {
  const links = [].concat(headers.link || []).join(',');
  const match = /<([^>]*)>\s*;\s*rel="?next"?/u.exec(links);
  return match ? new URL(match[1], baseUrl).href : null;
}

/**
 * Follow rel="next" from `firstUrl` to the last page, as a client reading the whole container
 * would. Resolves to { url, pages } (pages = 1 when the server does not page).
 */
async function walkToLastPage(firstUrl) {
  let url = firstUrl;
  for (let pages = 1; pages <= MAX_PAGES; pages++) {
    const res = await expectStatus(url, { headers: { accept: JSON_LD }, timeoutMs: 120000 }, [200]);
    const next = nextLink(res.headers, url);
    if (!next) {
      return { url, pages };
    }
    url = next;
  }
  throw new Error(`more than ${MAX_PAGES} pages from ${firstUrl}`);
}

async function startFedpodLdp({ startTimeout }) {
  const cli = await fedpodCommand('start');
  if (!cli.ok) {
    throw new Error(cli.reason);
  }
  const dataDir = makeDataDir('scale');
  const [port, storePort] = [await freePort(), await freePort()];
  const baseUrl = `http://localhost:${port}/`;
  const args = [FEDPOD_BIN, 'start', '--config', 'ldp', '--port', String(port), '--base-url', baseUrl,
    '--data-dir', dataDir, '--store-port', String(storePort)];
  let round = 0;
  // Ready = /readyz 200: the store answers and the server serves (a 503 while the store loads).
  const start = () => startServer({ name: `fedpod-scale-${round++}`, args, cwd: FEDPOD_ROOT,
    readyUrl: `${baseUrl}readyz`, timeoutMs: startTimeout * 1000 });
  return restartableSession(start, (handle) => ({
    label: 'Fedpod', baseUrl, containerUrl: `${baseUrl}notes/`, dataDir,
    lastPage: walkToLastPage,
    pagingNote: 'pages of --container-page-size (500) members, newest first, rel="next" links',
    info: () => ({ config: 'ldp', args: args.slice(2).join(' '), log: handle().logFile }),
  }));
}

async function startCssFile({ startTimeout }) {
  const dataDir = makeDataDir('scale-css');
  const port = await freePort();
  let round = 0;
  const start = () => startStockCss({ name: `css-file-scale-${round++}`, config: 'file-root', port,
    extraArgs: ['-f', dataDir], timeoutMs: startTimeout * 1000 });
  return restartableSession(start, (handle) => ({
    label: 'CSS', baseUrl: handle().baseUrl, containerUrl: `${handle().baseUrl}notes/`, dataDir,
    // CSS does not page containers: its first and last page are the whole listing.
    lastPage: async (firstUrl) => ({ url: firstUrl, pages: 1 }),
    pagingNote: 'no paging: first and last page are the whole container',
    info: () => ({ config: '@css:config/file-root.json', log: handle().logFile }),
  }));
}

/**
 * A target's session over the server `start` starts: its pid, start time, stop, and a restart on the
 * same data; `describe` adds what differs (given the current handle, which a restart replaces).
 */
async function restartableSession(start, describe) {
  let handle = await start();
  const session = {
    ...describe(() => handle),
    startMs: handle.startMs,
    pid: () => handle.pid,
    async restart() {
      await handle.stop();
      handle = await start();
      session.startMs = handle.startMs;
      return handle.startMs;
    },
    stop: () => handle.stop(),
  };
  return session;
}

/** Create the container unless it exists (Fedpod's ldp setup has /notes/ already). */
async function ensureContainer(containerUrl) {
  const existing = await request(containerUrl, { headers: { accept: 'text/turtle' } });
  if (existing.status === 200) {
    return;
  }
  await expectStatus(containerUrl, {
    method: 'PUT',
    headers: { 'content-type': 'text/turtle', link: '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"' },
    body: '',
  }, [200, 201, 204, 205]);
}

const LDP_TARGETS = [
  { id: 'fedpod', label: 'Fedpod', description: 'fedpod start --config ldp (embedded store)', start: startFedpodLdp },
  { id: 'css', label: 'CSS', description: 'stock CSS, @css:config/file-root.json (file backend)', start: startCssFile },
];

module.exports = { LDP_TARGETS, ensureContainer, nextLink, JSON_LD };
