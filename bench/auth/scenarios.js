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
    request: ({ privateUrl, key, tokens }) => ({
      url: privateUrl,
      headers: { accept: TURTLE },
      makeHeaders: (_counter, url) => dpopHeaders(key, tokens, 'GET', url),
    }),
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
