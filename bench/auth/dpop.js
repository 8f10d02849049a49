'use strict';

// Solid-OIDC client side of the auth benchmark: an ES256 key pair, DPoP proofs
// built synchronously with node:crypto (autocannon's setupRequest cannot wait
// for a promise), and the client_credentials token request.

const crypto = require('node:crypto');
const { request } = require('../lib/http');

const JOSE_HEADER_TYP = 'dpop+jwt';

function base64url(input) {
  return Buffer.from(input).toString('base64url');
}

function sha256base64url(text) {
  return crypto.createHash('sha256').update(text).digest('base64url');
}

/**
 * A DPoP key of one client: an ES256 (P-256) key pair and a proof builder.
 * proof({ htm, htu, accessToken }) returns a compact JWS, a fresh `jti` every call;
 * with `accessToken` the proof also carries `ath` (RFC 9449 for resource requests).
 */
function createDpopKey() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  const jwk = { kty, crv, x, y };
  const encodedHeader = base64url(JSON.stringify({ typ: JOSE_HEADER_TYP, alg: 'ES256', jwk }));
  // jti: a random prefix per key plus a counter, unique without a random draw per proof.
  const jtiPrefix = crypto.randomBytes(8).toString('hex');
  let nextJti = 0;
  const athCache = new Map();

  function ath(accessToken) {
    let hash = athCache.get(accessToken);
    if (!hash) {
      hash = sha256base64url(accessToken);
      athCache.set(accessToken, hash);
    }
    return hash;
  }

  function proof({ htm, htu, accessToken }) {
    const payload = {
      htu: htu.replace(/[?#].*$/s, ''),
      htm,
      jti: `${jtiPrefix}-${nextJti++}`,
      iat: Math.floor(Date.now() / 1000),
      ...accessToken ? { ath: ath(accessToken) } : {},
    };
    const signingInput = `${encodedHeader}.${base64url(JSON.stringify(payload))}`;
    const signature = crypto.sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' });
    return `${signingInput}.${signature.toString('base64url')}`;
  }

  return { jwk, proof };
}

/** The issuer's token endpoint, from its /.well-known/openid-configuration. */
async function discoverTokenEndpoint(issuer) {
  const configUrl = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const res = await request(configUrl, { headers: { accept: 'application/json' } });
  if (res.status !== 200) {
    throw new Error(`GET ${configUrl} answered ${res.status}: ${res.body.slice(0, 200)}`);
  }
  const document = JSON.parse(res.body);
  if (typeof document.token_endpoint !== 'string') {
    throw new Error(`${configUrl} names no token_endpoint`);
  }
  return document.token_endpoint;
}

/**
 * client_credentials grant with a DPoP proof. Resolves to
 * { accessToken, tokenType, expiresIn, expiresAt (ms), claims (the token's payload) }.
 */
async function requestDpopToken({ tokenEndpoint, clientId, secret, key }) {
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64');
  const res = await request(tokenEndpoint, {
    method: 'POST',
    headers: {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      dpop: key.proof({ htm: 'POST', htu: tokenEndpoint }),
    },
    body: 'grant_type=client_credentials&scope=webid',
  });
  if (res.status !== 200) {
    throw new Error(`token request to ${tokenEndpoint} answered ${res.status}: ${res.body.slice(0, 300)}`);
  }
  const answer = JSON.parse(res.body);
  if (typeof answer.access_token !== 'string' || !/^dpop$/i.test(answer.token_type || '')) {
    throw new Error(`token endpoint ${tokenEndpoint} gave no DPoP token: ${res.body.slice(0, 300)}`);
  }
  const expiresIn = Number(answer.expires_in) || 0;
  let claims = {};
  try {
    claims = JSON.parse(Buffer.from(answer.access_token.split('.')[1], 'base64url').toString('utf8'));
  } catch {
    // An opaque token: no claims to report.
  }
  return { accessToken: answer.access_token, tokenType: answer.token_type, expiresIn, expiresAt: Date.now() + expiresIn * 1000, claims };
}

/**
 * How many proofs this process signs per second on one core (the load generator's
 * own cost per DPoP request; it shares the machine with the server under test).
 */
function proofRate(seconds = 0.5) {
  const key = createDpopKey();
  const started = performance.now();
  let count = 0;
  while (performance.now() - started < seconds * 1000) {
    for (let i = 0; i < 100; i++) {
      key.proof({ htm: 'GET', htu: 'http://localhost:3000/pods/bench/private.ttl', accessToken: 'a.b.c' });
    }
    count += 100;
  }
  return count / ((performance.now() - started) / 1000);
}

module.exports = { createDpopKey, discoverTokenEndpoint, requestDpopToken, proofRate, base64url };
