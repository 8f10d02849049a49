'use strict';

const { freePort } = require('../lib/ports');
const { startStockCss } = require('../lib/css');
const { fedpodCommand, startFedpod, makeDataDir } = require('../lib/fedpod');
const { expectStatus } = require('../lib/http');

const USERNAME = 'bench';
const EMAIL = 'bench@example.org';
const PASSWORD = 'correct horse battery';

// Each target's start() resolves to a session { baseUrl, info, stop(), account } or throws (a throw
// becomes a "not available: <reason>" row). `account` is the user the scenarios run as:
//   { storageUrl, webId, issuer, clientId, secret, bearerToken? }
// storageUrl is a container only that user can read and write; clientId/secret are client
// credentials for the issuer's client_credentials grant; bearerToken is Fedpod's own token.

function jsonRequest(method, body, headers = {}) {
  return {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

// Stop the server when what follows its start fails, and pass the error on.
async function stopOnError(server, prepare) {
  try {
    return await prepare();
  } catch (error) {
    await server.stop();
    throw error;
  }
}

// Fedpod: POST /auth/signup, then POST /auth/clients with the user's Fedpod token.
async function fedpodAccount(baseUrl) {
  const signup = await expectStatus(`${baseUrl}auth/signup`,
    jsonRequest('POST', { username: USERNAME, email: EMAIL, password: PASSWORD }), [201]);
  const { token, webId } = JSON.parse(signup.body);
  const client = await expectStatus(`${baseUrl}auth/clients`,
    jsonRequest('POST', { name: 'bench' }, { authorization: `Bearer ${token}` }), [201]);
  const { id, secret, issuer } = JSON.parse(client.body);
  return { storageUrl: `${baseUrl}pods/${USERNAME}/`, webId, issuer, clientId: id, secret, bearerToken: token };
}

async function startFedpodWac({ startTimeout }) {
  const cli = await fedpodCommand('start');
  if (!cli.ok) {
    throw new Error(cli.reason);
  }
  const [port, storePort] = [await freePort(), await freePort()];
  const fedpod = await startFedpod({ name: 'fedpod-wac', config: 'ldp-wac', port, storePort, timeoutMs: startTimeout * 1000 });
  const account = await stopOnError(fedpod, () => fedpodAccount(fedpod.baseUrl));
  return {
    baseUrl: fedpod.baseUrl,
    account,
    info: { config: 'ldp-wac', startMs: fedpod.startMs, log: fedpod.logFile, webId: account.webId, storage: account.storageUrl },
    stop: fedpod.stop,
  };
}

/**
 * Stock CSS 7 account API (JSON under /.account/): create an account (its answer holds the
 * account token, sent back as `Authorization: CSS-Account-Token <token>`), add a password login,
 * create a pod (which makes and links its WebID), then client credentials for that WebID.
 */
async function cssAccount(baseUrl) {
  const index = await expectStatus(`${baseUrl}.account/`, { headers: { accept: 'application/json' } }, [200]);
  const created = await expectStatus(JSON.parse(index.body).controls.account.create, jsonRequest('POST', {}), [200]);
  const auth = { authorization: `CSS-Account-Token ${JSON.parse(created.body).authorization}` };
  // Logged in, the index lists the account's own controls.
  const own = await expectStatus(`${baseUrl}.account/`, { headers: { accept: 'application/json', ...auth } }, [200]);
  const { controls } = JSON.parse(own.body);
  await expectStatus(controls.password.create, jsonRequest('POST', { email: EMAIL, password: PASSWORD }, auth), [200]);
  const pod = JSON.parse((await expectStatus(controls.account.pod, jsonRequest('POST', { name: USERNAME }, auth), [200])).body);
  const client = JSON.parse((await expectStatus(controls.account.clientCredentials,
    jsonRequest('POST', { name: 'bench', webId: pod.webId }, auth), [200])).body);
  return { storageUrl: pod.pod, webId: pod.webId, issuer: baseUrl, clientId: client.id, secret: client.secret };
}

async function startCss({ startTimeout }) {
  const port = await freePort();
  const dataDir = makeDataDir('css-files');
  const css = await startStockCss({
    name: 'css', config: 'file', port, extraArgs: ['-f', dataDir], timeoutMs: startTimeout * 1000,
  });
  const account = await stopOnError(css, () => cssAccount(css.baseUrl));
  return {
    baseUrl: css.baseUrl,
    account,
    info: { config: '@css:config/file.json', backend: 'file', startMs: css.startMs, log: css.logFile, webId: account.webId,
      storage: account.storageUrl },
    stop: css.stop,
  };
}

const TARGETS = [
  { id: 'fedpod-wac', label: 'Fedpod-WAC', description: 'fedpod start --config ldp-wac (embedded store, WebACL, Solid-OIDC provider)',
    start: startFedpodWac },
  { id: 'css', label: 'CSS', description: 'stock CSS, @css:config/file.json (file backend, WebACL, accounts + Solid-OIDC provider)',
    start: startCss },
];

module.exports = { TARGETS };
