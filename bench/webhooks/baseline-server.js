'use strict';

// The HTTP side of the two baseline webhook servers (bare-webhook-server.js, bare-bullmq-server.js):
// POST reads the body and parses it as JSON (400 if not), hands it to `accept(data, done)`, and
// answers 202 {status, job} when `done(jobId)` is called (503 on `done(null)`). GET /stats reports
// counts and POST-to-action times (`?latencies`). Plain callbacks, no promises: the baseline must
// stay the least a Node server can do.
const http = require('node:http');

function serveBaseline(port, accept, stats) {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      const { accepted, processed, latencies } = stats();
      const body = JSON.stringify({ accepted, processed, latencies: req.url.includes('latencies') ? latencies : undefined });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      let data;
      try {
        data = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_json"}');
        return;
      }
      accept(data, (job) => {
        if (job === null) {
          res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"unavailable"}');
          return;
        }
        const text = JSON.stringify({ status: 'accepted', job });
        res.writeHead(202, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
      });
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1');
  return server;
}

module.exports = { serveBaseline };
