'use strict';

const { turtleBody, dpopHeaders, patchUrl, TURTLE, RUN_TAG, PATCH_KINDS } = require('./seed');

let nextPut = 0;

// A new resource per request: replacing one would measure a different operation as the run goes on.
// Its own sequence: the load tool's counter restarts with each run (settle, warm-up, measurement).
function putSpec(containerUrl, headers, makeHeaders) {
  return {
    url: `${containerUrl}put-${RUN_TAG}.ttl`,
    makeUrl: () => `${containerUrl}put-${RUN_TAG}-${nextPut++}.ttl`,
    ...makeHeaders ? { makeHeaders } : {},
    method: 'PUT',
    headers: { 'content-type': TURTLE, ...headers },
    body: turtleBody(`put ${RUN_TAG}`),
  };
}

let nextPatch = 0;

// A DPoP PATCH of one of the seeded documents of its kind, in turn (seed.js: PATCH_KINDS).
function patchSpec(containerUrl, kind, key, tokens) {
  const { type, body } = PATCH_KINDS[kind];
  return {
    url: patchUrl(containerUrl, kind, 0),
    makeUrl: () => patchUrl(containerUrl, kind, nextPatch++),
    makeHeaders: (_counter, url) => dpopHeaders(key, tokens, 'PATCH', url),
    method: 'PATCH',
    headers: { 'content-type': type },
    body,
  };
}

// A proof is accepted for 60 s after it is signed: a pool is signed only for a run that ends well before.
const POOL_MAX_SECONDS = 40;
const POOL_MAX_PROOFS = 300000;

/**
 * DPoP proofs for one URL signed before the measured run: three times as many as the warm-up's rate would use
 * (live signing takes over if they run out, and is reported). The load generator
 * shares the two cores with the server; signing a proof per request there took CPU from the server
 * under test, while the anonymous and Fedpod-token GETs it is compared with cost the load generator
 * nothing per request. The server's work per request is the same either way: every proof is new.
 */
function proofPool(sign, url) {
  let proofs = [];
  let used = 0;
  let live = 0;
  let filled = 0;
  return {
    fill: ({ warmup, seconds }) => {
      proofs = [];
      used = 0;
      live = 0;
      const rate = warmup && warmup.durationS > 0 ? warmup.requests / warmup.durationS : 0;
      const count = Math.min(POOL_MAX_PROOFS, Math.ceil(rate * seconds * 3));
      if (seconds > POOL_MAX_SECONDS || count === 0) {
        filled = 0;
        return { proofsSigned: 0 };
      }
      for (let i = 0; i < count; i++) {
        proofs.push(sign(url));
      }
      filled = count;
      return { proofsSigned: count };
    },
    next: (requestUrl) => {
      if (requestUrl === url && used < proofs.length) {
        return proofs[used++];
      }
      live++;
      return sign(requestUrl);
    },
    report: () => (filled > 0 ? `${used} pre-signed proofs used, ${live} signed during the run` : `${live} proofs signed during the run`),
  };
}

function requireBearer(bearerToken) {
  if (!bearerToken) {
    throw new Error('no token of its own (Fedpod only)');
  }
  return bearerToken;
}

/**
 * The auth scenarios, run in this order on every target. `auth` says which credential each
 * request carries ('dpop': `Authorization: DPoP <token>` plus a fresh proof per request;
 * 'bearer': Fedpod's own token; 'none': anonymous). `request(prepared)` builds the load
 * description (bench/auth/load.js) for one prepared target, or throws when the target cannot
 * run it (the row is then skipped with that reason).
 */
const SCENARIOS = [
  {
    id: 'get-dpop',
    label: '(a) GET, DPoP',
    kind: 'GET',
    auth: 'dpop',
    request: ({ privateUrl, key, tokens }) => {
      const pool = proofPool((url) => dpopHeaders(key, tokens, 'GET', url), privateUrl);
      return {
        url: privateUrl,
        headers: { accept: TURTLE },
        makeHeaders: (_counter, url) => pool.next(url),
        beforeMeasure: pool.fill,
        afterMeasure: pool.report,
      };
    },
  },
  {
    id: 'get-bearer',
    label: '(b) GET, Fedpod token',
    kind: 'GET',
    auth: 'bearer',
    request: ({ privateUrl, bearerToken }) => ({
      url: privateUrl,
      headers: { accept: TURTLE, authorization: `Bearer ${requireBearer(bearerToken)}` },
    }),
  },
  {
    id: 'get-public',
    label: '(c) GET, anonymous',
    kind: 'GET',
    auth: 'none',
    request: ({ publicUrl }) => ({ url: publicUrl, headers: { accept: TURTLE } }),
  },
  {
    id: 'put-dpop',
    label: '(d) PUT, DPoP',
    kind: 'PUT',
    auth: 'dpop',
    request: ({ containerUrl, key, tokens }) => putSpec(containerUrl, {}, (_counter, url) => dpopHeaders(key, tokens, 'PUT', url)),
  },
  {
    // Not a goal: tells what a PUT costs in Fedpod apart from the DPoP check.
    id: 'put-bearer',
    label: '(e) PUT, Fedpod token',
    kind: 'PUT',
    auth: 'bearer',
    request: ({ containerUrl, bearerToken }) => putSpec(containerUrl, { authorization: `Bearer ${requireBearer(bearerToken)}` }),
  },
  {
    id: 'patch-sparql-dpop',
    label: '(f) PATCH SPARQL, DPoP',
    kind: 'PATCH',
    auth: 'dpop',
    request: ({ containerUrl, key, tokens }) => patchSpec(containerUrl, 'sparql', key, tokens),
  },
  {
    id: 'patch-n3-dpop',
    label: '(g) PATCH N3, DPoP',
    kind: 'PATCH',
    auth: 'dpop',
    request: ({ containerUrl, key, tokens }) => patchSpec(containerUrl, 'n3', key, tokens),
  },
];

module.exports = { SCENARIOS };
