'use strict';

// The "bare Node" floor for the actor benchmark: node:http answering GETs with
// bytes kept in memory, exactly as they were PUT (same body, same Content-Type).
// No JSON parsing, no RDF, no negotiation, no auth.
//
//   node bench/actors/static-server.js --port 3000 [--host 127.0.0.1]
//   PUT /any/path   (body + Content-Type stored; 201 first time, 204 after)
//   GET /any/path   (the stored bytes, or 404); GET /healthz

const http = require('node:http');
const { parseServerArgs, readBody } = require('../lib/server-util');

const MAX_BODY_BYTES = 1024 * 1024;

function send(res, status, body = '', contentType = 'text/plain') {
  const payload = Buffer.isBuffer(body) ? body : Buffer.from(body);
  res.writeHead(status, { 'content-type': contentType, 'content-length': payload.length });
  res.end(payload);
}

function createStaticServer() {
  // path (with query string) -> { body: Buffer, contentType }
  const documents = new Map();
  return http.createServer((req, res) => {
    const handle = async () => {
      if (req.url === '/healthz') {
        return send(res, 200, 'ok');
      }
      if (req.method === 'PUT') {
        const created = !documents.has(req.url);
        const body = Buffer.from(await readBody(req, MAX_BODY_BYTES));
        documents.set(req.url, { body, contentType: req.headers['content-type'] || 'application/octet-stream' });
        return send(res, created ? 201 : 204);
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return send(res, 405, 'method not allowed');
      }
      const document = documents.get(req.url);
      return document ? send(res, 200, document.body, document.contentType) : send(res, 404, 'not found');
    };
    handle().catch((error) => {
      if (!res.headersSent) {
        send(res, 500, error.message);
      }
    });
  });
}

if (require.main === module) {
  const { port, host } = parseServerArgs(process.argv.slice(2));
  const server = createStaticServer();
  server.keepAliveTimeout = 60000;
  server.listen(port, host, () => {
    process.stdout.write(`static document server on http://${host}:${server.address().port}/\n`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

module.exports = { createStaticServer };
