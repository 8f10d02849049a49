'use strict';
/* global Request, Response, Headers -- Node 20 fetch API globals, missing from eslint.config.js's list */
/**
 * A real ActivityPub server for federation tests, built on Fedify, run as its
 * own Node process (started by test/support/fedify-peer.ts) so Fedify's module
 * state and the Node 20 shims below never enter jest.
 *
 *   node test/support/fedify-peer/peer.js --port N --cert server.pem --key server-key.pem
 *            [--first-knock draft-cavage-http-signatures-12|rfc9421] [--log-level info]
 *
 * Serves HTTPS on 127.0.0.1:N as https://localhost:N/ with one actor, `peer`
 * (Person, RSA key, inbox, outbox, followers, following), a shared inbox
 * (/inbox) and WebFinger. Incoming activities are verified by Fedify for real
 * (skipSignatureVerification: false) and recorded; Follows are accepted
 * automatically with a signed Accept. There is no message queue: whatever the
 * peer sends is delivered at once, so /_test/send and /_test/follow answer
 * only after the recipient's inbox has answered (and report its failure).
 *
 * Test control endpoints (not ActivityPub), JSON in and out:
 *   GET  /_test/health               200 {ok, actor}
 *   GET  /_test/received             every activity that reached an inbox listener (or failed verification)
 *   GET  /_test/requests             every POST to an inbox, with the status Fedify answered
 *   GET  /_test/sent                 every delivery the peer attempted (Accepts included), with errors
 *   GET  /_test/followers            [{id, inbox, sharedInbox, followId}]
 *   GET  /_test/following            [{id, followId, state: pending|accepted|rejected}]
 *   POST /_test/follow  {target}     sends a signed Follow to an actor (URL, acct: or user@host)
 *   POST /_test/send    {activity, recipients?, preferSharedInbox?}
 *                                    signs and delivers; recipients default to to+cc+bto+bcc
 *   POST /_test/lookup  {resource}   WebFinger (for acct:/handles) + ctx.lookupObject, summarised
 *   POST /_test/reset                forgets everything above and Fedify's caches (keys stay)
 */

// ---------------------------------------------------------------- Node 20 shims
// Fedify 2.x declares Node >= 22. On Node 20 it needs a `navigator` global
// (http signature key import reads `navigator?.userAgent`, which throws a
// ReferenceError when the global does not exist at all).
globalThis.navigator ??= { userAgent: 'node' };
// `Iterator.from` (Node 22) is used only by @fedify/uri-template's
// Router.register, reached through createFederationBuilder().build() (router
// clone). This program uses createFederation(), which never clones the
// router, so no polyfill is installed: a partial one would be worse than a
// clear TypeError. (jsonld's bundled core-js defines a global `Iterator` with
// map/filter/toArray but without `from`.)

const fs = require('node:fs');
const https = require('node:https');
const { randomUUID, webcrypto: crypto } = require('node:crypto');

const {
  createFederation, MemoryKvStore, exportSpki,
} = require('@fedify/fedify');
const vocab = require('@fedify/vocab');
const { AsyncLocalStorage } = require('node:async_hooks');
const { configure, getConsoleSink } = require('@logtape/logtape');

const {
  Person, Endpoints, Follow, Accept, Reject, Undo, Create, Like, Announce, Delete, Update, Activity, isActor,
} = vocab;

// ---------------------------------------------------------------- arguments

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--')) throw new Error(`unexpected argument ${argv[i]}`);
    args[argv[i].slice(2)] = argv[i + 1];
  }
  for (const required of [ 'port', 'cert', 'key' ]) {
    if (!args[required]) throw new Error(`--${required} is required`);
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
const PORT = Number(args.port);
const ORIGIN = `https://localhost:${PORT}`;
const IDENTIFIER = 'peer';
const FIRST_KNOCK = args['first-knock'] || 'draft-cavage-http-signatures-12';
const LOG_LEVEL = args['log-level'] || 'info';
const AS_PUBLIC = new Set([ 'https://www.w3.org/ns/activitystreams#Public', 'as:Public', 'Public' ]);

const log = (message) => process.stdout.write(`[peer ${new Date().toISOString()}] ${message}\n`);

// ---------------------------------------------------------------- state

const state = {
  seq: 0,
  /** Activities that reached a listener, or failed verification. */
  received: [],
  /** POSTs to inboxes, with Fedify's answer. */
  requests: [],
  /** Deliveries attempted by the peer. */
  sent: [],
  /** actor id -> {id, inbox, sharedInbox, followId} */
  followers: new Map(),
  /** actor id -> {id, followId, state} */
  following: new Map(),
  /** Activities sent via the control endpoints, for the outbox (Fedify objects). */
  outbox: [],
  /** id -> JSON of what the peer published (activities and embedded objects), served on GET. */
  published: new Map(),
};

function resetState() {
  state.received = [];
  state.requests = [];
  state.sent = [];
  state.followers.clear();
  state.following.clear();
  state.outbox = [];
  state.published.clear();
}

// ---------------------------------------------------------------- helpers

const idOf = (value) => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof value.id === 'string') return value.id;
  return null;
};

const asArray = (value) => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [ value ]);

function errorText(error) {
  if (error instanceof Error) return error.cause ? `${error.message} (cause: ${errorText(error.cause)})` : error.message;
  return String(error);
}

/** JSON-safe copy (URLs as strings, errors as messages, Responses as status). */
function plain(value) {
  return JSON.parse(JSON.stringify(value, (_key, v) => {
    if (v instanceof URL) return v.href;
    if (v instanceof Error) return errorText(v);
    if (v instanceof Response) return { status: v.status, url: v.url };
    return v;
  }));
}

function json(status, body) {
  return new Response(JSON.stringify(body, null, 2), { status, headers: { 'content-type': 'application/json' } });
}

function publish(activityJson) {
  state.published.set(activityJson.id, activityJson);
  const object = activityJson.object;
  if (object && typeof object === 'object' && !Array.isArray(object) && typeof object.id === 'string' &&
      object.id.startsWith(`${ORIGIN}/`)) {
    state.published.set(object.id, { '@context': activityJson['@context'], ...object });
  }
}

/** Records one activity that reached the peer. */
function record(ctx, activity, extra) {
  const raw = ctx.data.rawJson;
  const entry = {
    seq: ++state.seq,
    type: raw && typeof raw.type === 'string' ? raw.type : vocab.getTypeId(activity).href,
    id: activity.id ? activity.id.href : null,
    actor: activity.actorId ? activity.actorId.href : null,
    object: raw ? raw.object : (activity.objectId ? activity.objectId.href : null),
    objectId: raw ? idOf(raw.object) : (activity.objectId ? activity.objectId.href : null),
    /** The personal inbox's actor identifier, or null for the shared inbox. */
    recipient: ctx.recipient ?? null,
    verified: true,
    signatureScheme: ctx.data.signatureScheme,
    receivedAt: new Date().toISOString(),
    raw,
    ...extra,
  };
  state.received.push(entry);
  log(`received ${entry.type} ${entry.id} from ${entry.actor} (verified: ${entry.verified})`);
  return entry;
}

async function deliver(ctx, recipients, activity, options = {}) {
  const entry = {
    id: activity.id ? activity.id.href : null,
    type: vocab.getTypeId(activity).href.replace('https://www.w3.org/ns/activitystreams#', ''),
    recipients: recipients.map((recipient) => recipient.id ? recipient.id.href : null),
    inboxes: recipients.map((recipient) =>
      (options.preferSharedInbox && recipient.endpoints && recipient.endpoints.sharedInbox
        ? recipient.endpoints.sharedInbox : recipient.inboxId)?.href ?? null),
    ok: false,
    error: null,
    at: new Date().toISOString(),
  };
  state.sent.push(entry);
  try {
    await ctx.sendActivity({ identifier: IDENTIFIER }, recipients, activity, options);
    entry.ok = true;
    log(`sent ${entry.type} ${entry.id} to ${entry.inboxes.join(', ')}`);
  } catch (error) {
    entry.error = errorText(error);
    log(`FAILED to send ${entry.type} ${entry.id} to ${entry.inboxes.join(', ')}: ${entry.error}`);
    throw error;
  }
  return entry;
}

// ---------------------------------------------------------------- federation

let keyPairs; // [{privateKey, publicKey}], generated once, kept across resets

function makeFederation() {
  const federation = createFederation({
    kv: new MemoryKvStore(),
    allowPrivateAddress: true,
    skipSignatureVerification: false,
    firstKnock: FIRST_KNOCK,
    // Retries belong to a queue; without one a failed delivery fails the call.
  });

  federation
    .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
      if (identifier !== IDENTIFIER) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: 'Fedify test peer',
        summary: 'A Fedify instance driven by Fedpod\'s federation tests',
        url: ctx.getActorUri(identifier),
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        following: ctx.getFollowingUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        manuallyApprovesFollowers: false,
        publicKey: keys[0].cryptographicKey,
        assertionMethods: keys.map((key) => key.multikey),
      });
    })
    .mapHandle((_ctx, username) => (username === IDENTIFIER ? IDENTIFIER : null))
    .setKeyPairsDispatcher(async (_ctx, identifier) => (identifier === IDENTIFIER ? keyPairs : []));

  federation
    .setFollowersDispatcher('/users/{identifier}/followers', (_ctx, identifier) => {
      if (identifier !== IDENTIFIER) return null;
      return {
        items: [ ...state.followers.values() ].map((follower) => ({
          id: new URL(follower.id),
          inboxId: new URL(follower.inbox),
          endpoints: follower.sharedInbox ? { sharedInbox: new URL(follower.sharedInbox) } : null,
        })),
      };
    })
    .setCounter((_ctx, identifier) => (identifier === IDENTIFIER ? state.followers.size : null));

  federation
    .setFollowingDispatcher('/users/{identifier}/following', (_ctx, identifier) => {
      if (identifier !== IDENTIFIER) return null;
      return { items: [ ...state.following.values() ].filter((f) => f.state === 'accepted').map((f) => new URL(f.id)) };
    });

  federation
    .setOutboxDispatcher('/users/{identifier}/outbox', (_ctx, identifier) => {
      if (identifier !== IDENTIFIER) return null;
      return { items: [ ...state.outbox ].reverse() };
    })
    .setCounter((_ctx, identifier) => (identifier === IDENTIFIER ? state.outbox.length : null));

  federation
    .setInboxListeners('/users/{identifier}/inbox', '/inbox')
    // Record every delivery, duplicates included (Fedify would drop a repeated activity id).
    .withIdempotency(() => null)
    .on(Follow, async (ctx, follow) => {
      const entry = record(ctx, follow);
      const target = follow.objectId ? ctx.parseUri(follow.objectId) : null;
      if (!target || target.type !== 'actor' || target.identifier !== IDENTIFIER || !follow.actorId) {
        entry.note = 'not a follow of the peer actor: not accepted';
        return;
      }
      const follower = await follow.getActor(ctx);
      if (!follower || !follower.id || !follower.inboxId) {
        entry.note = 'follower actor could not be fetched: not accepted';
        return;
      }
      state.followers.set(follower.id.href, {
        id: follower.id.href,
        inbox: follower.inboxId.href,
        sharedInbox: follower.endpoints && follower.endpoints.sharedInbox ? follower.endpoints.sharedInbox.href : null,
        followId: follow.id ? follow.id.href : null,
      });
      const accept = new Accept({
        id: new URL(`${ORIGIN}/accepts/${randomUUID()}`),
        actor: ctx.getActorUri(IDENTIFIER),
        object: follow,
      });
      // Sent after this inbox request has been answered, as a queue would: the
      // follower's server gets its 202 first, then the Accept.
      setImmediate(() => {
        deliver(ctx, [ follower ], accept).catch(() => undefined);
      });
    })
    .on(Accept, async (ctx, accept) => {
      record(ctx, accept);
      const followId = idOf(ctx.data.rawJson && ctx.data.rawJson.object) ?? (accept.objectId && accept.objectId.href);
      for (const followed of state.following.values()) {
        if (followed.followId === followId || (followed.id === (accept.actorId && accept.actorId.href) && followed.state === 'pending')) {
          followed.state = 'accepted';
        }
      }
    })
    .on(Reject, async (ctx, reject) => {
      record(ctx, reject);
      const followId = idOf(ctx.data.rawJson && ctx.data.rawJson.object);
      for (const followed of state.following.values()) {
        if (followed.followId === followId) followed.state = 'rejected';
      }
    })
    .on(Undo, async (ctx, undo) => {
      record(ctx, undo);
      const object = ctx.data.rawJson && ctx.data.rawJson.object;
      const undoneId = idOf(object);
      for (const [ id, follower ] of state.followers) {
        if ((undoneId && follower.followId === undoneId) ||
            (object && typeof object === 'object' && object.type === 'Follow' && id === (undo.actorId && undo.actorId.href))) {
          state.followers.delete(id);
        }
      }
    })
    .on(Create, async (ctx, activity) => { record(ctx, activity); })
    .on(Like, async (ctx, activity) => { record(ctx, activity); })
    .on(Announce, async (ctx, activity) => { record(ctx, activity); })
    .on(Delete, async (ctx, activity) => { record(ctx, activity); })
    .on(Update, async (ctx, activity) => { record(ctx, activity); })
    // Anything else (Block, Add, Move, ...): still recorded.
    .on(Activity, async (ctx, activity) => { record(ctx, activity); })
    .onUnverifiedActivity((ctx, activity, reason) => {
      record(ctx, activity, { verified: false, reason: plain(reason) });
      // void: Fedify answers 401.
    })
    .onError((_ctx, error) => {
      log(`inbox listener error: ${errorText(error)}`);
    });

  return federation;
}

let federation;

// ---------------------------------------------------------------- control endpoints

async function readJson(request) {
  try {
    return await request.json();
  } catch {
    return {};
  }
}

function summarise(object, publicKeyPem) {
  const summary = {
    id: object.id ? object.id.href : null,
    type: vocab.getTypeId(object).href.replace('https://www.w3.org/ns/activitystreams#', ''),
  };
  if (isActor(object)) {
    Object.assign(summary, {
      preferredUsername: object.preferredUsername ? String(object.preferredUsername) : null,
      inbox: object.inboxId ? object.inboxId.href : null,
      outbox: object.outboxId ? object.outboxId.href : null,
      followers: object.followersId ? object.followersId.href : null,
      following: object.followingId ? object.followingId.href : null,
      sharedInbox: object.endpoints && object.endpoints.sharedInbox ? object.endpoints.sharedInbox.href : null,
      publicKey: publicKeyPem,
    });
  }
  return summary;
}

const control = {
  'GET /_test/health': async () => json(200, { ok: true, actor: `${ORIGIN}/users/${IDENTIFIER}` }),
  'GET /_test/received': async () => json(200, state.received),
  'GET /_test/requests': async () => json(200, state.requests),
  'GET /_test/sent': async () => json(200, state.sent),
  'GET /_test/followers': async () => json(200, [ ...state.followers.values() ]),
  'GET /_test/following': async () => json(200, [ ...state.following.values() ]),

  'POST /_test/reset': async () => {
    resetState();
    federation = makeFederation(); // fresh MemoryKvStore: no cached remote documents or keys
    return json(200, { ok: true });
  },

  'POST /_test/lookup': async (request, ctx) => {
    const { resource } = await readJson(request);
    if (typeof resource !== 'string') return json(400, { error: 'body must be {"resource": "..."}' });
    const result = { resource, webfinger: null, object: null, summary: null, errors: [] };
    if (!/^https?:/u.test(resource)) {
      try {
        result.webfinger = await ctx.lookupWebFinger(resource.startsWith('acct:') ? resource : `acct:${resource.replace(/^@/u, '')}`);
      } catch (error) {
        result.errors.push(`webfinger: ${errorText(error)}`);
      }
    }
    try {
      const object = await ctx.lookupObject(resource);
      if (object) {
        result.object = await object.toJsonLd({ format: 'compact', contextLoader: ctx.contextLoader });
        let publicKeyPem = null;
        if (isActor(object)) {
          const key = await object.getPublicKey({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader });
          if (key) {
            publicKeyPem = {
              id: key.id ? key.id.href : null,
              owner: key.ownerId ? key.ownerId.href : null,
              pem: key.publicKey ? await exportSpki(key.publicKey) : null,
              algorithm: key.publicKey ? key.publicKey.algorithm.name : null,
            };
          }
        }
        result.summary = summarise(object, publicKeyPem);
      }
    } catch (error) {
      result.errors.push(`lookupObject: ${errorText(error)}`);
    }
    return json(result.object ? 200 : 404, result);
  },

  'POST /_test/follow': async (request, ctx) => {
    const { target } = await readJson(request);
    if (typeof target !== 'string') return json(400, { error: 'body must be {"target": actorUrl or handle}' });
    const actor = await ctx.lookupObject(target);
    if (!actor || !isActor(actor) || !actor.id) return json(404, { error: `${target} is not an actor the peer can look up` });
    const followId = `${ORIGIN}/follows/${randomUUID()}`;
    const follow = new Follow({ id: new URL(followId), actor: ctx.getActorUri(IDENTIFIER), object: actor.id });
    state.following.set(actor.id.href, { id: actor.id.href, followId, state: 'pending' });
    publish(await follow.toJsonLd({ format: 'compact', contextLoader: ctx.contextLoader }));
    state.outbox.push(follow);
    try {
      const sent = await deliver(ctx, [ actor ], follow);
      return json(200, { id: followId, target: actor.id.href, inboxes: sent.inboxes });
    } catch (error) {
      return json(502, { id: followId, target: actor.id.href, error: errorText(error) });
    }
  },

  'POST /_test/send': async (request, ctx) => {
    const body = await readJson(request);
    if (!body.activity || typeof body.activity !== 'object') return json(400, { error: 'body must be {"activity": {...}}' });
    const actorUri = ctx.getActorUri(IDENTIFIER).href;
    const followersUri = ctx.getFollowersUri(IDENTIFIER).href;
    const activityJson = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      ...body.activity,
    };
    activityJson.id ??= `${ORIGIN}/activities/${randomUUID()}`;
    activityJson.actor ??= actorUri;
    const object = activityJson.object;
    if (object && typeof object === 'object' && !Array.isArray(object) && object.type && object.id === undefined &&
        ![ 'Follow', 'Like', 'Announce', 'Undo', 'Accept', 'Reject', 'Block' ].includes(object.type)) {
      object.id = `${ORIGIN}/objects/${randomUUID()}`;
    }

    const recipientIds = body.recipients ??
      [ 'to', 'cc', 'bto', 'bcc' ].flatMap((field) => asArray(activityJson[field]).map(idOf)).filter((id) => id && !AS_PUBLIC.has(id));
    const recipients = [];
    const seen = new Set();
    const add = (recipient) => {
      if (recipient.id && !seen.has(recipient.id.href)) {
        seen.add(recipient.id.href);
        recipients.push(recipient);
      }
    };
    for (const id of new Set(recipientIds)) {
      if (id === followersUri) {
        for (const follower of state.followers.values()) {
          add({ id: new URL(follower.id), inboxId: new URL(follower.inbox),
            endpoints: follower.sharedInbox ? { sharedInbox: new URL(follower.sharedInbox) } : null });
        }
        continue;
      }
      const actor = await ctx.lookupObject(id);
      if (!actor || !isActor(actor)) return json(400, { error: `recipient ${id} is not an actor the peer can look up` });
      add(actor);
    }
    if (recipients.length === 0) return json(400, { error: 'no recipients (to/cc/bto/bcc or "recipients")' });

    let activity;
    try {
      activity = await Activity.fromJsonLd(activityJson, { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader });
    } catch (error) {
      return json(400, { error: `not an activity: ${errorText(error)}` });
    }
    publish(activityJson);
    state.outbox.push(activity);
    try {
      const sent = await deliver(ctx, recipients, activity, { preferSharedInbox: body.preferSharedInbox === true });
      return json(200, { id: activityJson.id, activity: activityJson, recipients: sent.recipients, inboxes: sent.inboxes });
    } catch (error) {
      return json(502, { id: activityJson.id, activity: activityJson, error: errorText(error) });
    }
  },
};

// ---------------------------------------------------------------- HTTP

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function toRequest(req, url, body) {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(url, { method: req.method, headers, body: hasBody ? body : undefined });
}

async function handle(request, body) {
  const url = new URL(request.url);
  const route = control[`${request.method} ${url.pathname}`];
  if (route) return route(request, federation.createContext(request, { rawJson: null, signatureScheme: null }));

  if ((request.method === 'GET' || request.method === 'HEAD') && state.published.has(url.href)) {
    return new Response(JSON.stringify(state.published.get(url.href)), {
      status: 200, headers: { 'content-type': 'application/activity+json' },
    });
  }

  let rawJson = null;
  if (request.method === 'POST') {
    try {
      rawJson = JSON.parse(body.toString('utf8'));
    } catch {
      rawJson = null;
    }
  }
  const signatureScheme = request.headers.has('signature-input') ? 'rfc9421'
    : request.headers.has('signature') ? 'draft-cavage' : null;
  const response = await federation.fetch(request, { contextData: { rawJson, signatureScheme } });
  if (request.method === 'POST' && /\/inbox$/u.test(url.pathname)) {
    const answer = response.status >= 400 ? await response.clone().text() : '';
    state.requests.push({
      path: url.pathname, status: response.status, signatureScheme, answer: answer.slice(0, 2000),
      type: rawJson && rawJson.type, id: rawJson && rawJson.id, at: new Date().toISOString(),
    });
  }
  return response;
}

async function main() {
  await configure({
    sinks: { console: getConsoleSink() },
    contextLocalStorage: new AsyncLocalStorage(),
    loggers: [
      { category: 'fedify', lowestLevel: LOG_LEVEL, sinks: [ 'console' ] },
      { category: [ 'logtape', 'meta' ], lowestLevel: 'warning', sinks: [ 'console' ] },
    ],
  });
  // 2048 bits (as Mastodon): generateCryptoKeyPair() makes 4096-bit keys, ~1 s
  // of CPU (several seconds while Fedpod starts on the same 2 cores).
  const rsa = await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([ 1, 0, 1 ]), hash: 'SHA-256' },
    true, [ 'sign', 'verify' ],
  );
  keyPairs = [ rsa ];
  federation = makeFederation();

  const server = https.createServer({ cert: fs.readFileSync(args.cert), key: fs.readFileSync(args.key) }, (req, res) => {
    const began = Date.now();
    readBody(req)
      .then(async (body) => {
        const url = new URL(req.url, `https://${req.headers.host || `localhost:${PORT}`}`);
        const response = await handle(toRequest(req, url, body), body);
        const payload = Buffer.from(await response.arrayBuffer());
        const headers = {};
        response.headers.forEach((value, name) => { headers[name] = value; });
        headers['content-length'] = String(payload.length);
        res.writeHead(response.status, headers);
        res.end(req.method === 'HEAD' ? undefined : payload);
        log(`${req.method} ${req.url} -> ${response.status} (${Date.now() - began} ms)`);
      })
      .catch((error) => {
        log(`${req.method} ${req.url} -> 500: ${error && error.stack ? error.stack : error}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`peer error: ${errorText(error)}\n`);
      });
  });
  server.on('tlsClientError', () => undefined);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: PORT, host: '127.0.0.1', exclusive: true }, resolve);
  });
  log(`listening on ${ORIGIN}/ (actor ${ORIGIN}/users/${IDENTIFIER}, first knock ${FIRST_KNOCK}, node ${process.version})`);

  const shutdown = (signal) => {
    log(`${signal}: shutting down`);
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 2_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  log(`failed to start: ${error && error.stack ? error.stack : error}`);
  process.exit(1);
});
