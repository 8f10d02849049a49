'use strict';

// A deliberately minimal LDP-ish server on bare node:http, keeping everything
// in memory. It is the "raw HTTP + JSON" floor that real servers are compared
// against: it parses and re-serializes JSON but does no RDF, auth or locking.
// Files (a PUT of any other type) are the exception: they are written as a
// durable server writes them (the file and its directory fsynced before the
// answer), in a temporary directory removed at exit, so a file PUT here is the
// floor of a durable file PUT on this machine.
//
//   node bench/lib/bare-ldp-server.js --port 3000 [--host 127.0.0.1]

const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const { join } = require('node:path');
const { parseServerArgs, readBody, readBodyBytes } = require('./server-util');
const { randomUUID } = require('node:crypto');

const MAX_BODY_BYTES = 1024 * 1024;
const JSON_LD = 'application/ld+json';
const LDP_CONTEXT = { ldp: 'http://www.w3.org/ns/ldp#' };


function send(res, status, body, headers = {}) {
  const payload = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...(payload ? { 'content-type': JSON_LD } : {}),
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}


function createStore() {
  // container path -> Set of child paths; resource path -> parsed JSON
  const containers = new Map([['/', new Set()]]);
  const documents = new Map();
  // resource path -> { file, type }; the bytes are on disk under filesDir
  const files = new Map();
  const filesDir = fs.mkdtempSync(join(os.tmpdir(), 'bare-ldp-files-'));
  return { containers, documents, files, filesDir };
}

function baseUrlOf(req) {
  return `http://${req.headers.host || 'localhost'}`;
}

function containerListing(req, path, children) {
  const base = baseUrlOf(req);
  return {
    '@context': LDP_CONTEXT,
    '@id': `${base}${path}`,
    '@type': ['ldp:Container', 'ldp:BasicContainer'],
    'ldp:contains': [...children].map((child) => ({ '@id': `${base}${child}` })),
  };
}

function handleGet(store, req, res, path) {
  if (path === '/healthz') {
    return send(res, 200, { status: 'ok' });
  }
  if (store.containers.has(path)) {
    return send(res, 200, containerListing(req, path, store.containers.get(path)));
  }
  if (store.documents.has(path)) {
    return send(res, 200, { ...store.documents.get(path), '@id': `${baseUrlOf(req)}${path}` });
  }
  if (store.files.has(path)) {
    const { file, type, size } = store.files.get(path);
    res.writeHead(200, { 'content-type': type, 'content-length': size });
    return fs.createReadStream(file).pipe(res);
  }
  return send(res, 404, { error: 'not found' });
}

async function handlePost(store, req, res, path) {
  const children = store.containers.get(path);
  if (!children) {
    return send(res, 404, { error: 'no such container' });
  }
  let document;
  try {
    document = JSON.parse(await readBody(req, MAX_BODY_BYTES));
  } catch {
    return send(res, 400, { error: 'invalid JSON' });
  }
  const childPath = `${path}${randomUUID()}`;
  store.documents.set(childPath, document);
  children.add(childPath);
  return send(res, 201, undefined, { location: `${baseUrlOf(req)}${childPath}` });
}

// A new file, fsynced with its directory before the answer.
async function writeFileDurably(directory, bytes) {
  const file = join(directory, randomUUID());
  const handle = await fs.promises.open(file, 'wx');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  const directoryHandle = await fs.promises.open(directory, 'r');
  try {
    await directoryHandle.sync();
  } finally {
    await directoryHandle.close();
  }
  return file;
}

async function handleFilePut(store, req, res, path) {
  const parent = path.slice(0, path.lastIndexOf('/') + 1);
  if (!store.containers.has(parent)) {
    return send(res, 409, { error: 'parent container missing' });
  }
  const bytes = await readBodyBytes(req, MAX_BODY_BYTES);
  const file = await writeFileDurably(store.filesDir, bytes);
  const previous = store.files.get(path);
  store.files.set(path, { file, type: req.headers['content-type'], size: bytes.length });
  if (previous) {
    await fs.promises.rm(previous.file, { force: true });
    return send(res, 205);
  }
  store.containers.get(parent).add(path);
  return send(res, 201, undefined, { location: `${baseUrlOf(req)}${path}` });
}

// PUT creates containers, and files of any type but JSON; a container's parent must exist.
async function handlePut(store, req, res, path) {
  const type = req.headers['content-type'] || '';
  if (!path.endsWith('/') && type !== '' && !type.includes('json')) {
    return handleFilePut(store, req, res, path);
  }
  await readBody(req, MAX_BODY_BYTES);
  if (!path.endsWith('/')) {
    return send(res, 405, { error: 'only containers and files can be PUT' });
  }
  if (store.containers.has(path)) {
    return send(res, 205);
  }
  const parent = path.slice(0, path.slice(0, -1).lastIndexOf('/') + 1);
  if (!store.containers.has(parent)) {
    return send(res, 409, { error: 'parent container missing' });
  }
  store.containers.set(path, new Set());
  store.containers.get(parent).add(path);
  return send(res, 201, undefined, { location: `${baseUrlOf(req)}${path}` });
}

function createBareServer() {
  const store = createStore();
  const handlers = { GET: handleGet, HEAD: handleGet, POST: handlePost, PUT: handlePut };
  const server = http.createServer((req, res) => {
    const handler = handlers[req.method];
    const path = new URL(req.url, 'http://x').pathname;
    if (!handler) {
      return send(res, 405, { error: 'method not allowed' });
    }
    Promise.resolve(handler(store, req, res, path)).catch((error) => {
      if (!res.headersSent) {
        send(res, 500, { error: error.message });
      }
    });
  });
  server.filesDir = store.filesDir;
  return server;
}

if (require.main === module) {
  const { port, host } = parseServerArgs(process.argv.slice(2));
  const server = createBareServer();
  server.keepAliveTimeout = 60000;
  process.on('exit', () => fs.rmSync(server.filesDir, { recursive: true, force: true }));
  server.listen(port, host, () => {
    process.stdout.write(`bare LDP server on http://${host}:${server.address().port}/\n`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

module.exports = { createBareServer };
