'use strict';

const { randomBytes } = require('node:crypto');
const { request, expectStatus } = require('../lib/http');
const { createDpopKey, discoverTokenEndpoint, requestDpopToken } = require('./dpop');

const TURTLE = 'text/turtle';
const WRITE_OK = [200, 201, 204, 205];
// A per-run tag makes every resource's content identifiable in the answers.
const RUN_TAG = randomBytes(4).toString('hex');

/** The small Turtle resource of every scenario (about 300 bytes): a few triples about one note. */
function turtleBody(marker) {
  return `@prefix dc: <http://purl.org/dc/terms/>.
@prefix as: <https://www.w3.org/ns/activitystreams#>.
<#it> a as:Note;
  dc:title "bench ${marker}";
  as:content "A small Turtle resource the auth benchmark reads and writes.";
  dc:created "2026-01-01T00:00:00Z";
  as:attributedTo <#me>.
`;
}

// The ACL of the public resource: its owner controls it, everyone reads it.
function publicAcl(webId, name) {
  return `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${webId}>; acl:mode acl:Read, acl:Write, acl:Control; acl:accessTo <./${name}>.
<#public> a acl:Authorization; acl:agentClass <http://xmlns.com/foaf/0.1/Agent>; acl:mode acl:Read; acl:accessTo <./${name}>.
`;
}

/**
 * The target's DPoP-bound access token, renewed by ensureFresh() when it would expire
 * before a measurement ends (both servers hand out 10-minute tokens).
 */
function tokenSource({ tokenEndpoint, clientId, secret, key }) {
  const source = {
    token: null,
    async renew() {
      source.token = await requestDpopToken({ tokenEndpoint, clientId, secret, key });
      return source.token;
    },
    async ensureFresh(seconds) {
      if (!source.token || source.token.expiresAt < Date.now() + seconds * 1000) {
        await source.renew();
      }
      return source.token;
    },
  };
  return source;
}

// The documents the PATCH scenarios change, per kind: requests go round them, so that the run
// measures patches more than waits for one document's lock (each connection has one to itself).
const PATCH_DOCUMENTS = 10;
const PATCH_KINDS = {
  sparql: {
    type: 'application/sparql-update',
    // What saveSolidDatasetAt (@inrupt/solid-client) sends for a changed value: DELETE DATA, then INSERT DATA.
    body: `DELETE DATA { <#it> <http://purl.org/dc/terms/title> "bench patch" . };
INSERT DATA { <#it> <http://purl.org/dc/terms/title> "bench patch" . };`,
  },
  n3: {
    type: 'text/n3',
    // An N3 Patch that reads the value it replaces (solid:where: one match, the title).
    body: `@prefix solid: <http://www.w3.org/ns/solid/terms#>.
@prefix dc: <http://purl.org/dc/terms/>.
_:patch a solid:InsertDeletePatch;
  solid:where { <#it> dc:title ?title };
  solid:deletes { <#it> dc:title ?title };
  solid:inserts { <#it> dc:title "bench patch" }.`,
  },
};

function patchUrl(containerUrl, kind, index) {
  return `${containerUrl}patch-${kind}-${RUN_TAG}-${index % PATCH_DOCUMENTS}.ttl`;
}

/** Headers of one DPoP-authenticated request: the bound token and a proof made for this method and URL. */
function dpopHeaders(key, tokens, method, url) {
  const accessToken = tokens.token.accessToken;
  return { authorization: `DPoP ${accessToken}`, dpop: key.proof({ htm: method, htu: url, accessToken }) };
}

function expectContent(res, marker, what) {
  if (!res.body.includes(`bench ${marker}`)) {
    throw new Error(`${what} answered ${res.status} without the resource's content: ${res.body.slice(0, 200)}`);
  }
}

// An answer that must be a refusal (401/403): anything 2xx means the scenario would not measure what it claims.
async function expectRefused(url, options, what) {
  const res = await request(url, options);
  if (res.status !== 401 && res.status !== 403) {
    throw new Error(`${what} answered ${res.status}, expected 401 or 403: ${res.body.slice(0, 200)}`);
  }
  return res.status;
}

/**
 * Log in as the session's user (client_credentials + DPoP), write the resources the scenarios use
 * and check every kind of request once. Refuses a target whose answers are not what the scenarios
 * claim to measure: the private resource must be refused to anonymous clients and to a replayed
 * proof, and served with its content to a fresh proof; the public one served anonymously.
 * Resolves to { containerUrl, privateUrl, publicUrl, key, tokens, bearerToken, shape, checks }.
 */
async function prepareAuth(session) {
  const { account } = session;
  const key = createDpopKey();
  const tokenEndpoint = await discoverTokenEndpoint(account.issuer);
  const tokens = tokenSource({ tokenEndpoint, clientId: account.clientId, secret: account.secret, key });
  const token = await tokens.renew();
  const dpop = (method, url) => dpopHeaders(key, tokens, method, url);

  const containerUrl = account.storageUrl;
  const privateUrl = `${containerUrl}private-${RUN_TAG}.ttl`;
  const publicName = `public-${RUN_TAG}.ttl`;
  const publicUrl = `${containerUrl}${publicName}`;
  await expectStatus(privateUrl, { method: 'PUT', headers: { 'content-type': TURTLE, ...dpop('PUT', privateUrl) },
    body: turtleBody(`private ${RUN_TAG}`) }, WRITE_OK);
  await expectStatus(publicUrl, { method: 'PUT', headers: { 'content-type': TURTLE, ...dpop('PUT', publicUrl) },
    body: turtleBody(`public ${RUN_TAG}`) }, WRITE_OK);
  await expectStatus(`${publicUrl}.acl`, { method: 'PUT', headers: { 'content-type': TURTLE, ...dpop('PUT', `${publicUrl}.acl`) },
    body: publicAcl(account.webId, publicName) }, WRITE_OK);

  const checks = {};
  const privateRead = await expectStatus(privateUrl, { headers: { accept: TURTLE, ...dpop('GET', privateUrl) } }, [200]);
  expectContent(privateRead, `private ${RUN_TAG}`, `GET ${privateUrl} with a DPoP token`);
  checks.dpopGet = 200;
  checks.anonymousPrivateGet = await expectRefused(privateUrl, { headers: { accept: TURTLE } },
    `anonymous GET of the private ${privateUrl}`);
  const replayed = dpop('GET', privateUrl);
  await expectStatus(privateUrl, { headers: { accept: TURTLE, ...replayed } }, [200]);
  checks.replayedProof = await expectRefused(privateUrl, { headers: { accept: TURTLE, ...replayed } },
    `GET ${privateUrl} with a DPoP proof used before`);
  const publicRead = await expectStatus(publicUrl, { headers: { accept: TURTLE } }, [200]);
  expectContent(publicRead, `public ${RUN_TAG}`, `anonymous GET ${publicUrl}`);
  checks.anonymousPublicGet = 200;
  let bearerBytes = null;
  if (account.bearerToken) {
    const bearerRead = await expectStatus(privateUrl,
      { headers: { accept: TURTLE, authorization: `Bearer ${account.bearerToken}` } }, [200]);
    expectContent(bearerRead, `private ${RUN_TAG}`, `GET ${privateUrl} with the Fedpod token`);
    checks.bearerGet = 200;
    bearerBytes = Buffer.byteLength(bearerRead.body);
  }
  const probeUrl = `${containerUrl}put-probe-${RUN_TAG}.ttl`;
  const written = await expectStatus(probeUrl, { method: 'PUT', headers: { 'content-type': TURTLE, ...dpop('PUT', probeUrl) },
    body: turtleBody(`probe ${RUN_TAG}`) }, WRITE_OK);
  const readBack = await expectStatus(probeUrl, { headers: { accept: TURTLE, ...dpop('GET', probeUrl) } }, [200]);
  expectContent(readBack, `probe ${RUN_TAG}`, `GET ${probeUrl} after a PUT with a DPoP token`);
  checks.dpopPut = written.status;
  for (const [kind, { type, body }] of Object.entries(PATCH_KINDS)) {
    for (let index = 0; index < PATCH_DOCUMENTS; index++) {
      const url = patchUrl(containerUrl, kind, index);
      await expectStatus(url, { method: 'PUT', headers: { 'content-type': TURTLE, ...dpop('PUT', url) },
        body: turtleBody(`${kind} ${RUN_TAG}`) }, WRITE_OK);
    }
    const url = patchUrl(containerUrl, kind, 0);
    const patched = await expectStatus(url, { method: 'PATCH', headers: { 'content-type': type, ...dpop('PATCH', url) }, body },
      WRITE_OK);
    expectContent(await expectStatus(url, { headers: { accept: TURTLE, ...dpop('GET', url) } }, [200]), 'patch',
      `GET ${url} after a ${kind} PATCH with a DPoP token`);
    checks[`${kind}Patch`] = patched.status;
  }

  return {
    containerUrl,
    privateUrl,
    publicUrl,
    key,
    tokens,
    bearerToken: account.bearerToken || null,
    checks,
    token: { tokenEndpoint, tokenType: token.tokenType, expiresIn: token.expiresIn, webId: token.claims.webid || null,
      issuer: token.claims.iss || null },
    shape: {
      turtleBytes: Buffer.byteLength(turtleBody(`private ${RUN_TAG}`)),
      privateBytes: Buffer.byteLength(privateRead.body),
      publicBytes: Buffer.byteLength(publicRead.body),
      bearerBytes,
    },
  };
}

module.exports = { prepareAuth, turtleBody, dpopHeaders, patchUrl, TURTLE, RUN_TAG, PATCH_KINDS };
