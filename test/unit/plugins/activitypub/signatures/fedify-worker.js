'use strict';
/* global Request */
// Runs Fedify (ESM-only dependencies, which jest's CommonJS runtime cannot load) in a plain node
// process for FedifyInterop.test.ts. One JSON request per stdin line, one JSON answer per stdout line:
//   { id, op: 'sign', spec, method, url, headers, body?, keyId, privateKeyPem } → { id, headers }
//   { id, op: 'verify', spec, method, url, headers, body?, documents } → { id, key: { id, owner } | null }
// `documents` maps URLs to the JSON documents the verifier's document loader may load.
globalThis.navigator ??= { userAgent: 'node' };
const { createPrivateKey, webcrypto } = require('node:crypto');
const readline = require('node:readline');
const fedify = require('@fedify/fedify');
const { preloadedContexts } = require('@fedify/vocab-runtime');

async function sign(message) {
  const der = createPrivateKey(message.privateKeyPem).export({ type: 'pkcs8', format: 'der' });
  const key = await webcrypto.subtle.importKey('pkcs8', der, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, true, [ 'sign' ]);
  const request = new Request(message.url, { method: message.method, headers: message.headers, body: message.body });
  const signed = await fedify.signRequest(request, key, new URL(message.keyId), { spec: message.spec });
  return { headers: Object.fromEntries(signed.headers) };
}

async function verify(message) {
  const documentLoader = async (url) => {
    if (url in preloadedContexts) {
      return { contextUrl: null, document: preloadedContexts[url], documentUrl: url };
    }
    const document = message.documents[url] ?? message.documents[url.split('#')[0]];
    if (document === undefined) {
      throw new Error(`No document for ${url}`);
    }
    return { contextUrl: null, document, documentUrl: url.split('#')[0] };
  };
  const request = new Request(message.url, { method: message.method, headers: message.headers, body: message.body });
  const key = await fedify.verifyRequest(request, { documentLoader, contextLoader: documentLoader, spec: message.spec });
  return { key: key === null ? null : { id: key.id?.href ?? null, owner: key.ownerId?.href ?? null } };
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  const run = message.op === 'sign' ? sign : verify;
  run(message).then(
    (result) => process.stdout.write(`${JSON.stringify({ id: message.id, ...result })}\n`),
    (error) => process.stdout.write(`${JSON.stringify({ id: message.id, error: String(error && error.stack) })}\n`),
  );
});
