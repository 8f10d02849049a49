'use strict';
// Micro-benchmark of HTTP signatures: HttpSigner / HttpSignatureVerifier (draft-cavage and
// RFC 9421) against the raw node:crypto operation they wrap, RSA-2048, one core.
//
//   node bench/federation/signatures.js            # ~2 s per row
//   BENCH_SECONDS=0.5 node bench/federation/signatures.js
//
// Loads the TypeScript sources directly (transpiled in memory with the project's typescript),
// so it measures the current src/ without a build. Nothing touches the network.
// bench/federation/run.js requires it for `ceiling()` (its "ceiling" rows).

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const ts = require('typescript');

require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
    fileName: filename,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  module._compile(outputText, filename);
};

const SRC = path.join(__dirname, '../../src/plugins/activitypub/signatures');
const { HttpSigner } = require(path.join(SRC, 'HttpSigner.ts'));
const { HttpSignatureVerifier } = require(path.join(SRC, 'HttpSignatureVerifier.ts'));

const SECONDS = Number(process.env.BENCH_SECONDS || 2);
const ACTOR = 'https://fedpod.example/users/alice';
const KEY_ID = `${ACTOR}#main-key`;
const BODY = Buffer.from(JSON.stringify({
  '@context': 'https://www.w3.org/ns/activitystreams',
  id: `${ACTOR}/statuses/1/activity`,
  type: 'Create',
  actor: ACTOR,
  to: [ 'https://www.w3.org/ns/activitystreams#Public' ],
  object: { id: `${ACTOR}/statuses/1`, type: 'Note', content: 'x'.repeat(700) },
}));

const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' });
const key = { keyId: KEY_ID, privateKey };
const signer = new HttpSigner();
const verifier = new HttpSignatureVerifier();
const resolved = { publicKey, owner: ACTOR };
const resolveKey = async () => resolved;

function inbox(i) {
  return `https://server${i % 997}.example/users/u${i}/inbox`;
}

/** Runs fn repeatedly for `seconds` (after a short warm-up); returns operations per second. */
async function measure(fn, seconds = SECONDS) {
  const warmUntil = performance.now() + 200;
  let i = 0;
  while (performance.now() < warmUntil) {
    await fn(i++);
  }
  const start = performance.now();
  const end = start + seconds * 1000;
  let count = 0;
  while (performance.now() < end) {
    for (let k = 0; k < 50; k += 1) {
      await fn(count++);
    }
  }
  return count / ((performance.now() - start) / 1000);
}

function signedRequest(scheme, i) {
  const url = inbox(i);
  const headers = { host: new URL(url).host, 'content-type': 'application/activity+json' };
  const added = signer.sign({ method: 'POST', url, headers, body: BODY }, key, scheme);
  const received = { ...headers };
  for (const [ name, value ] of Object.entries(added)) {
    received[name.toLowerCase()] = value;
  }
  return { method: 'POST', url, headers: received, body: BODY };
}

/** The cavage signing string, its raw signature and pre-signed requests for the verify rows. */
async function fixtures() {
  const cavageText = Buffer.from(`(request-target): post /users/u1/inbox\nhost: server1.example\ndate: ${new Date().toUTCString()}\ndigest: SHA-256=${crypto.createHash('sha256').update(BODY).digest('base64')}`);
  const rawSignature = crypto.sign('sha256', cavageText, privateKey);
  // Pre-signed requests for the verify rows (signing them is not what is measured).
  const pool = { cavage: [], rfc9421: [] };
  for (let i = 0; i < 200; i += 1) {
    pool.cavage.push(signedRequest('cavage', i));
    pool.rfc9421.push(signedRequest('rfc9421', i));
  }
  for (const scheme of [ 'cavage', 'rfc9421' ]) {
    const check = await verifier.verify(pool[scheme][0], resolveKey);
    if (!check.ok) {
      throw new Error(`self-check failed for ${scheme}: ${check.reason}`);
    }
  }
  return { cavageText, rawSignature, pool };
}

/**
 * The ceiling bench/federation/run.js reports: RSA-2048 operations per second on one core,
 * raw node:crypto and through Fedpod's HttpSigner / HttpSignatureVerifier (draft-cavage).
 */
async function ceiling(seconds = 1) {
  const { cavageText, rawSignature, pool } = await fixtures();
  return {
    rawSign: await measure(() => crypto.sign('sha256', cavageText, privateKey), seconds),
    rawVerify: await measure(() => crypto.verify('sha256', cavageText, publicKey, rawSignature), seconds),
    httpSignerCavage: await measure((i) => signer.sign({ method: 'POST', url: inbox(i), headers: {}, body: BODY }, key, 'cavage'), seconds),
    httpVerifierCavage: await measure((i) => verifier.verify(pool.cavage[i % 200], resolveKey), seconds),
    seconds,
    bodyBytes: BODY.length,
  };
}

async function main() {
  const cpu = os.cpus()[0];
  console.log(`node ${process.version}, ${cpu ? cpu.model : 'unknown cpu'}, ${os.cpus().length} cores; RSA-2048; ${SECONDS} s per row; body ${BODY.length} B`);
  const { cavageText, rawSignature, pool } = await fixtures();

  const rows = [
    [ 'sign   raw crypto.sign (KeyObject)', () => crypto.sign('sha256', cavageText, privateKey) ],
    [ 'sign   raw crypto.sign (PEM each call)', () => crypto.sign('sha256', cavageText, privatePem) ],
    [ 'sign   HttpSigner cavage  (POST+digest)', (i) => signer.sign({ method: 'POST', url: inbox(i), headers: {}, body: BODY }, key, 'cavage') ],
    [ 'sign   HttpSigner rfc9421 (POST+digest)', (i) => signer.sign({ method: 'POST', url: inbox(i), headers: {}, body: BODY }, key, 'rfc9421') ],
    [ 'verify raw crypto.verify (KeyObject)', () => crypto.verify('sha256', cavageText, publicKey, rawSignature) ],
    [ 'verify HttpSignatureVerifier cavage', (i) => verifier.verify(pool.cavage[i % 200], resolveKey) ],
    [ 'verify HttpSignatureVerifier rfc9421', (i) => verifier.verify(pool.rfc9421[i % 200], resolveKey) ],
  ];
  const results = {};
  for (const [ name, fn ] of rows) {
    results[name] = await measure(fn);
    console.log(`${name.padEnd(44)} ${Math.round(results[name]).toString().padStart(8)} /s`);
  }

  const rawSign = results[rows[0][0]];
  const rawVerify = results[rows[4][0]];
  console.log('');
  console.log(`HttpSigner cavage:  ${(100 * results[rows[2][0]] / rawSign).toFixed(1)} % of raw signing`);
  console.log(`HttpSigner rfc9421: ${(100 * results[rows[3][0]] / rawSign).toFixed(1)} % of raw signing`);
  console.log(`Verifier cavage:    ${(100 * results[rows[5][0]] / rawVerify).toFixed(1)} % of raw verification`);
  console.log(`Verifier rfc9421:   ${(100 * results[rows[6][0]] / rawVerify).toFixed(1)} % of raw verification`);

  const started = performance.now();
  for (let i = 0; i < 1000; i += 1) {
    signer.sign({ method: 'POST', url: inbox(i), headers: {}, body: BODY }, key, 'cavage');
  }
  console.log(`\nSigning 1,000 deliveries (1,000 inboxes, cavage): ${(performance.now() - started).toFixed(0)} ms (target: whole delivery <= 1,000 ms)`);
  const verifyStarted = performance.now();
  for (let i = 0; i < 1000; i += 1) {
    await verifier.verify(pool.cavage[i % 200], resolveKey);
  }
  console.log(`Verifying 1,000 incoming activities (cavage, cached key): ${(performance.now() - verifyStarted).toFixed(0)} ms (target: <= 1,000 ms)`);
}

module.exports = { measure, ceiling };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
