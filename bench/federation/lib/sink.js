'use strict';

// A lightweight ActivityPub receiver for the federation benchmark: the
// "remote servers" Fedpod and Fedify deliver to. One process listens on
// several HTTPS ports (each port is one remote host, https://localhost:PORT)
// plus one plain-HTTP control port on 127.0.0.1 for the bench.
//
//   node bench/federation/lib/sink.js --hosts 5 --control-port 4000 \
//        --cert server.pem --key server-key.pem --public-key actors.pub.pem [--verify 1]
//
// The HTTPS ports are chosen by the kernel (no race with other processes);
// GET /healthz on the control port lists them.
//
// HTTPS (every port):
//   GET  /s/users/<name>   actor with its own inbox AND endpoints.sharedInbox (https://localhost:PORT/inbox)
//   GET  /d/users/<name>   actor with its own inbox only (no shared inbox)
//   GET  /x/users/<name>   same as /s/ (the load generator's sender actor)
//   POST <anything>/inbox  a delivery: must carry a Signature header (else 401); with --verify 1
//                          (default) the draft-cavage signature and Digest are checked for real
//                          with the sender's key (registered through /keys, or fetched once from
//                          the keyId URL); answered 202, or 401 with the reason counted.
//   Every actor has the same RSA public key (--public-key); the bench holds the private key.
// Control (http://127.0.0.1:CONTROL):
//   GET  /healthz         {ok, ports}
//   POST /keys            {"<keyId>": "<public key PEM>", ...}: senders' keys, so no fetch is timed
//   GET  /stats?tag=T     deliveries of one activity (tag = its object's content, else its id):
//                         {posts, distinctInboxes, firstAt, lastAt}; lastAt = when the last inbox
//                         got its first accepted copy (epoch ms, performance.timeOrigin based);
//                         &times=1 adds `times`, every inbox's first accepted time
//   GET  /totals          {posts, accepted, rejected: {reason: n}, verified, unverifiedRfc9421, actorGets, handshakes}

const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const { parseSignatureHeader, verify } = require('./cavage');

const MAX_BODY_BYTES = 1024 * 1024;
const KEY_FETCH_TIMEOUT_MS = 10000;
const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
const SECURITY_CONTEXT = 'https://w3id.org/security/v1';

function parseArgs(argv) {
  const args = { verify: '1' };
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--')) {
      throw new Error(`unexpected argument ${argv[i]}`);
    }
    args[argv[i].slice(2)] = argv[i + 1];
  }
  for (const required of ['hosts', 'control-port', 'cert', 'key', 'public-key']) {
    if (!args[required]) {
      throw new Error(`--${required} is required`);
    }
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
const HOSTS = Number(args.hosts);
const PORTS = [];
const VERIFY = args.verify !== '0';
const PUBLIC_KEY_PEM = fs.readFileSync(args['public-key'], 'utf8');

const now = () => performance.timeOrigin + performance.now();

const totals = { posts: 0, accepted: 0, rejected: {}, verified: 0, unverifiedRfc9421: 0, actorGets: 0, handshakes: 0 };
// tag -> { posts, inboxes: Map(inbox -> first accepted at), firstAt, lastAt }
const deliveries = new Map();
// keyId -> Promise<KeyObject>
const keys = new Map();

function send(res, status, body, contentType = 'application/json') {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function actorDocument(port, shape, name) {
  const origin = `https://localhost:${port}`;
  const id = `${origin}/${shape}/users/${name}`;
  const actor = {
    '@context': [AS_CONTEXT, SECURITY_CONTEXT],
    id,
    type: 'Person',
    preferredUsername: name,
    inbox: `${id}/inbox`,
    outbox: `${id}/outbox`,
    followers: `${id}/followers`,
    following: `${id}/following`,
    publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: PUBLIC_KEY_PEM },
  };
  if (shape !== 'd') {
    actor.endpoints = { sharedInbox: `${origin}/inbox` };
  }
  return actor;
}

// A sender's public key: registered by the bench, else fetched once from the keyId URL.
function keyFor(keyId) {
  let pending = keys.get(keyId);
  if (!pending) {
    pending = (async () => {
      const url = new URL(keyId);
      url.hash = '';
      if (url.protocol !== 'https:' || !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
        // The bench never leaves this machine.
        throw new Error('not a loopback https URL');
      }
      const res = await fetch(url, {
        headers: { accept: 'application/activity+json' },
        signal: AbortSignal.timeout(KEY_FETCH_TIMEOUT_MS),
      });
      if (!res.ok) {
        throw new Error(`key fetch answered ${res.status}`);
      }
      const json = await res.json();
      const candidates = [].concat(json.publicKey || [], json.publicKeyPem ? [json] : []);
      const key = candidates.find((entry) => entry && entry.id === keyId) || candidates[0];
      if (!key || typeof key.publicKeyPem !== 'string') {
        throw new Error('no publicKeyPem');
      }
      return crypto.createPublicKey(key.publicKeyPem);
    })();
    pending.catch(() => keys.delete(keyId));
    keys.set(keyId, pending);
  }
  return pending;
}

function reject(res, reason) {
  totals.rejected[reason] = (totals.rejected[reason] || 0) + 1;
  send(res, 401, { error: reason });
}

function tagOf(activity) {
  const object = activity && activity.object;
  if (object && typeof object === 'object' && typeof object.content === 'string') {
    return object.content;
  }
  return activity && typeof activity.id === 'string' ? activity.id : '(no id)';
}

async function receive(port, req, res) {
  totals.posts += 1;
  const body = await readBody(req);
  if (req.headers['signature-input'] !== undefined && req.headers.signature !== undefined) {
    totals.unverifiedRfc9421 += 1;
  } else {
    const params = parseSignatureHeader(req.headers.signature);
    if (!params) {
      return reject(res, req.headers.signature === undefined ? 'no Signature header' : 'unparsable Signature header');
    }
    if (VERIFY) {
      let publicKey;
      try {
        publicKey = await keyFor(params.keyId);
      } catch (error) {
        return reject(res, `key ${params.keyId}: ${error.message}`);
      }
      const problem = verify(req, body, params, publicKey);
      if (problem) {
        return reject(res, problem);
      }
      totals.verified += 1;
    }
  }
  let activity;
  try {
    activity = JSON.parse(body.toString('utf8'));
  } catch {
    totals.rejected['invalid JSON'] = (totals.rejected['invalid JSON'] || 0) + 1;
    return send(res, 400, { error: 'invalid JSON' });
  }
  const tag = tagOf(activity);
  let entry = deliveries.get(tag);
  if (!entry) {
    entry = { posts: 0, inboxes: new Map(), firstAt: 0, lastAt: 0 };
    deliveries.set(tag, entry);
  }
  const at = now();
  const inbox = `${port}${req.url}`;
  entry.posts += 1;
  if (!entry.inboxes.has(inbox)) {
    entry.inboxes.set(inbox, at);
    entry.firstAt = entry.firstAt || at;
    entry.lastAt = Math.max(entry.lastAt, at);
  }
  totals.accepted += 1;
  return send(res, 202, '');
}

function handleRemote(portOf) {
  return (req, res) => {
    const port = portOf();
    const path = req.url.split('?')[0];
    const handle = async () => {
      if (req.method === 'POST' && path.endsWith('/inbox')) {
        return receive(port, req, res);
      }
      const match = /^\/([sdx])\/users\/([\w.-]+)$/.exec(path);
      if ((req.method === 'GET' || req.method === 'HEAD') && match) {
        totals.actorGets += 1;
        return send(res, 200, actorDocument(port, match[1], match[2]), 'application/activity+json');
      }
      req.resume();
      return send(res, 404, { error: 'not found' });
    };
    handle().catch((error) => {
      if (!res.headersSent) {
        send(res, 500, { error: error.message });
      }
    });
  };
}

async function handleControl(req, res) {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (url.pathname === '/healthz') {
    return send(res, 200, { ok: true, ports: PORTS });
  }
  if (url.pathname === '/keys' && req.method === 'POST') {
    const registered = JSON.parse((await readBody(req)).toString('utf8'));
    for (const [keyId, pem] of Object.entries(registered)) {
      keys.set(keyId, Promise.resolve(crypto.createPublicKey(pem)));
    }
    return send(res, 200, { keys: keys.size });
  }
  if (url.pathname === '/stats') {
    const entry = deliveries.get(url.searchParams.get('tag'));
    const answer = entry ?
      { posts: entry.posts, distinctInboxes: entry.inboxes.size, firstAt: entry.firstAt, lastAt: entry.lastAt } :
      { posts: 0, distinctInboxes: 0, firstAt: 0, lastAt: 0 };
    if (url.searchParams.get('times') === '1') {
      answer.times = entry ? [...entry.inboxes.values()] : [];
    }
    return send(res, 200, answer);
  }
  if (url.pathname === '/totals') {
    return send(res, 200, totals);
  }
  return send(res, 404, { error: 'not found' });
}

async function main() {
  const tlsOptions = { cert: fs.readFileSync(args.cert), key: fs.readFileSync(args.key), keepAlive: true };
  const servers = [];
  for (let i = 0; i < HOSTS; i++) {
    // The handler learns its port once listening; requests only come after that.
    let port = 0;
    const handler = handleRemote(() => port);
    const server = https.createServer(tlsOptions, (req, res) => handler(req, res));
    server.keepAliveTimeout = 30000;
    server.on('tlsClientError', () => undefined);
    // New TLS connections (handshakes, resumed or not): what a sender's connection reuse saves.
    server.on('secureConnection', () => {
      totals.handshakes += 1;
    });
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, resolve);
    });
    port = server.address().port;
    PORTS.push(port);
    servers.push(server);
  }
  const control = http.createServer((req, res) => {
    handleControl(req, res).catch((error) => send(res, 500, { error: error.message }));
  });
  control.keepAliveTimeout = 30000;
  await new Promise((resolve, reject) => {
    control.once('error', reject);
    control.listen({ port: Number(args['control-port']), host: '127.0.0.1', exclusive: true }, resolve);
  });
  servers.push(control);
  process.stdout.write(`sink on https://localhost:{${PORTS.join(',')}}, control http://127.0.0.1:${args['control-port']}/, ` +
    `signatures ${VERIFY ? 'verified' : 'only required'}\n`);
  process.on('SIGTERM', () => {
    for (const server of servers) {
      server.close();
      server.closeAllConnections();
    }
    setTimeout(() => process.exit(0), 500).unref();
  });
}

main().catch((error) => {
  process.stderr.write(`sink failed: ${error.stack || error}\n`);
  process.exit(1);
});
