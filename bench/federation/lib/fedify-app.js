'use strict';
/* global Request, Response, Headers -- Node 20 fetch API globals */

// The Fedify side of the federation benchmark: a minimal Fedify 2.3 app, as
// its documentation builds one, in its own process.
//
//   node bench/federation/lib/fedify-app.js --port HTTPS_PORT --http-port HTTP_PORT \
//        --cert server.pem --key server-key.pem [--queue default|parallel:32]
//
// - One actor, `bench` (Person, RSA-2048 key, inbox, followers, shared inbox /inbox).
// - Followers live in Fedify's KV (MemoryKvStore) as {id, inbox, sharedInbox};
//   the followers dispatcher reads them from there, so sendActivity(..., 'followers')
//   needs no remote fetch (Fedify keeps each follower's inbox when it follows).
// - Queue: `default` is `new InProcessMessageQueue()` (what the Fedify docs use;
//   one message at a time); `parallel:N` wraps it in ParallelMessageQueue(N workers).
// - Inbox listeners verify signatures for real (Fedify's default); a Create is counted.
// - Served on HTTPS (https://localhost:HTTPS_PORT, what peers fetch) and, for the bench's
//   load generator and control calls, on plain HTTP 127.0.0.1:HTTP_PORT, where every
//   request is handed to Fedify as https://localhost:HTTPS_PORT/... (as behind a TLS proxy).
//
// Control (JSON): GET /_bench/health; POST /_bench/followers {followers:[{id,inbox,sharedInbox}]};
// POST /_bench/send {tag, preferSharedInbox} answers once sendActivity() has returned;
// GET /_bench/stats {creates} (Create activities that reached the inbox listener).

// Fedify 2.x declares Node >= 22; on Node 20 it needs a `navigator` global.
globalThis.navigator ??= { userAgent: 'node' };

const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const { randomUUID, webcrypto } = require('node:crypto');
const {
  createFederation, MemoryKvStore, InProcessMessageQueue, ParallelMessageQueue,
} = require('@fedify/fedify');
const { Person, Endpoints, Create, Note } = require('@fedify/vocab');
const { AsyncLocalStorage } = require('node:async_hooks');
const { configure, getConsoleSink } = require('@logtape/logtape');

function parseArgs(argv) {
  const args = { queue: 'default' };
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--')) {
      throw new Error(`unexpected argument ${argv[i]}`);
    }
    args[argv[i].slice(2)] = argv[i + 1];
  }
  for (const required of ['port', 'http-port', 'cert', 'key']) {
    if (!args[required]) {
      throw new Error(`--${required} is required`);
    }
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
const PORT = Number(args.port);
const ORIGIN = `https://localhost:${PORT}`;
const IDENTIFIER = 'bench';
const FOLLOWERS_KEY = ['bench', 'followers'];
const MAX_BODY_BYTES = 1024 * 1024;

const log = (message) => process.stdout.write(`[fedify-app ${new Date().toISOString()}] ${message}\n`);
const stats = { creates: 0, unverified: 0 };

function makeQueue(spec) {
  if (spec === 'default') {
    return new InProcessMessageQueue();
  }
  const match = /^parallel:(\d+)$/.exec(spec);
  if (!match) {
    throw new Error(`--queue must be default or parallel:N, not ${spec}`);
  }
  return new ParallelMessageQueue(new InProcessMessageQueue(), Number(match[1]));
}

let keyPairs;
const kv = new MemoryKvStore();

const federation = createFederation({
  kv,
  queue: makeQueue(args.queue),
  allowPrivateAddress: true,
  // Mastodon's scheme, as Fedpod signs by default.
  firstKnock: 'draft-cavage-http-signatures-12',
});

federation
  .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
    if (identifier !== IDENTIFIER) {
      return null;
    }
    const keys = await ctx.getActorKeyPairs(identifier);
    return new Person({
      id: ctx.getActorUri(identifier),
      preferredUsername: identifier,
      name: 'Fedify bench actor',
      inbox: ctx.getInboxUri(identifier),
      followers: ctx.getFollowersUri(identifier),
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      publicKey: keys[0].cryptographicKey,
      assertionMethods: keys.map((key) => key.multikey),
    });
  })
  .setKeyPairsDispatcher(async (_ctx, identifier) => (identifier === IDENTIFIER ? keyPairs : []));

federation
  .setFollowersDispatcher('/users/{identifier}/followers', async (_ctx, identifier) => {
    if (identifier !== IDENTIFIER) {
      return null;
    }
    const followers = (await kv.get(FOLLOWERS_KEY)) || [];
    return {
      items: followers.map((follower) => ({
        id: new URL(follower.id),
        inboxId: new URL(follower.inbox),
        endpoints: follower.sharedInbox ? { sharedInbox: new URL(follower.sharedInbox) } : null,
      })),
    };
  })
  .setCounter(async (_ctx, identifier) => (identifier === IDENTIFIER ? ((await kv.get(FOLLOWERS_KEY)) || []).length : null));

federation
  .setInboxListeners('/users/{identifier}/inbox', '/inbox')
  .on(Create, async () => {
    stats.creates += 1;
  })
  .onUnverifiedActivity(() => {
    stats.unverified += 1;
  })
  .onError((_ctx, error) => log(`inbox listener error: ${error && error.message}`));

function json(status, body) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

async function sendToFollowers(body) {
  const ctx = federation.createContext(new URL(`${ORIGIN}/`), undefined);
  const actor = ctx.getActorUri(IDENTIFIER);
  const followers = ctx.getFollowersUri(IDENTIFIER);
  const create = new Create({
    id: new URL(`${ORIGIN}/activities/${randomUUID()}`),
    actor,
    to: followers,
    object: new Note({
      id: new URL(`${ORIGIN}/notes/${randomUUID()}`),
      attribution: actor,
      to: followers,
      content: String(body.tag),
    }),
  });
  await ctx.sendActivity({ identifier: IDENTIFIER }, 'followers', create, { preferSharedInbox: body.preferSharedInbox === true });
  return create.id.href;
}

const control = {
  'GET /_bench/health': async () => json(200, { ok: true, actor: `${ORIGIN}/users/${IDENTIFIER}`, queue: args.queue }),
  'GET /_bench/stats': async () => json(200, stats),
  'POST /_bench/followers': async (request) => {
    const { followers } = await request.json();
    await kv.set(FOLLOWERS_KEY, followers);
    return json(200, { followers: followers.length });
  },
  'POST /_bench/send': async (request) => json(200, { id: await sendToFollowers(await request.json()) }),
};

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

function toRequest(req, body) {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  // Always the public https:// URL, whichever listener it came in on.
  return new Request(`${ORIGIN}${req.url}`, { method: req.method, headers, body: hasBody ? body : undefined });
}

function handler(req, res) {
  readBody(req)
    .then(async (body) => {
      const request = toRequest(req, body);
      const route = control[`${req.method} ${req.url.split('?')[0]}`];
      const response = route ? await route(request) : await federation.fetch(request, { contextData: undefined });
      const payload = Buffer.from(await response.arrayBuffer());
      const headers = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      headers['content-length'] = String(payload.length);
      res.writeHead(response.status, headers);
      res.end(req.method === 'HEAD' ? undefined : payload);
    })
    .catch((error) => {
      log(`${req.method} ${req.url} -> 500: ${error && error.stack ? error.stack : error}`);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
      }
      res.end(`fedify-app error: ${error && error.message}\n`);
    });
}

function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, resolve);
  });
}

async function main() {
  await configure({
    sinks: { console: getConsoleSink() },
    contextLocalStorage: new AsyncLocalStorage(),
    loggers: [
      { category: 'fedify', lowestLevel: 'warning', sinks: ['console'] },
      { category: ['logtape', 'meta'], lowestLevel: 'warning', sinks: ['console'] },
    ],
  });
  // RSA-2048 as Fedpod's actors (generateCryptoKeyPair() would make 4096-bit keys).
  const rsa = await webcrypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true, ['sign', 'verify'],
  );
  keyPairs = [rsa];
  const secure = https.createServer({ cert: fs.readFileSync(args.cert), key: fs.readFileSync(args.key), keepAlive: true }, handler);
  secure.on('tlsClientError', () => undefined);
  const plain = http.createServer(handler);
  plain.keepAliveTimeout = 30000;
  await listen(secure, PORT);
  await listen(plain, Number(args['http-port']));
  log(`listening on ${ORIGIN}/ and http://127.0.0.1:${args['http-port']}/ (queue ${args.queue}, node ${process.version})`);
  process.on('SIGTERM', () => {
    for (const server of [secure, plain]) {
      server.close();
      server.closeAllConnections();
    }
    setTimeout(() => process.exit(0), 500).unref();
  });
}

main().catch((error) => {
  log(`failed to start: ${error && error.stack ? error.stack : error}`);
  process.exit(1);
});
