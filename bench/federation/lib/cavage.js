'use strict';

// draft-cavage HTTP signatures (rsa-sha256, as Mastodon), written for the bench
// so that its sinks and load generator share no code with Fedpod or Fedify:
// sign() for the ingest load generator, verify() for the sinks.

const crypto = require('node:crypto');

const SIGNED_HEADERS = ['(request-target)', 'host', 'date', 'digest'];

function digestOf(body) {
  return `SHA-256=${crypto.createHash('sha256').update(body).digest('base64')}`;
}

/**
 * Headers for a signed POST of `body` to `url` (host, date, digest, signature,
 * content-type), signed over (request-target) host date digest.
 * `hostHeader` overrides the URL's host (the Host the server will see).
 */
function signPost({ url, body, keyId, privateKey, date = new Date(), hostHeader }) {
  const target = new URL(url);
  const headers = {
    host: hostHeader || target.host,
    date: date.toUTCString(),
    digest: digestOf(body),
    'content-type': 'application/activity+json',
  };
  const signingString = [
    `(request-target): post ${target.pathname}${target.search}`,
    `host: ${headers.host}`,
    `date: ${headers.date}`,
    `digest: ${headers.digest}`,
  ].join('\n');
  const signature = crypto.sign('sha256', Buffer.from(signingString), privateKey).toString('base64');
  headers.signature = `keyId="${keyId}",algorithm="rsa-sha256",headers="${SIGNED_HEADERS.join(' ')}",signature="${signature}"`;
  return headers;
}

/** keyId, algorithm, headers, signature, created, expires of a Signature header; null if unparsable. */
function parseSignatureHeader(value) {
  if (typeof value !== 'string') {
    return null;
  }
  const params = {};
  const pattern = /([a-zA-Z]+)=(?:"([^"]*)"|(\d+))/g;
  let match;
  while ((match = pattern.exec(value)) !== null) {
    params[match[1]] = match[2] !== undefined ? match[2] : match[3];
  }
  if (!params.keyId || !params.signature) {
    return null;
  }
  params.headers = (params.headers || 'date').toLowerCase().split(/\s+/).filter(Boolean);
  return params;
}

function headerValue(req, name) {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Checks a received request's draft-cavage signature with `publicKey` (a KeyObject).
 * `params` from parseSignatureHeader(). Resolves to '' when valid, else the reason.
 */
function verify(req, body, params, publicKey) {
  const lines = [];
  for (const name of params.headers) {
    if (name === '(request-target)') {
      lines.push(`(request-target): ${req.method.toLowerCase()} ${req.url}`);
    } else if (name === '(created)' || name === '(expires)') {
      const value = params[name.slice(1, -1)];
      if (value === undefined) {
        return `${name} signed but not in the signature parameters`;
      }
      lines.push(`${name}: ${value}`);
    } else {
      const value = headerValue(req, name);
      if (value === undefined) {
        return `signed header ${name} missing`;
      }
      lines.push(`${name}: ${value}`);
    }
  }
  if (!params.headers.includes('digest')) {
    return 'digest not signed';
  }
  const digest = headerValue(req, 'digest') || '';
  const sha256 = digest.split(',').map((part) => part.trim()).find((part) => /^sha-256=/i.test(part));
  if (!sha256 || sha256.slice('sha-256='.length) !== crypto.createHash('sha256').update(body).digest('base64')) {
    return 'digest does not match the body';
  }
  const ok = crypto.verify('sha256', Buffer.from(lines.join('\n')), publicKey, Buffer.from(params.signature, 'base64'));
  return ok ? '' : 'signature does not verify';
}

module.exports = { signPost, parseSignatureHeader, verify, digestOf };
