'use strict';

// Stand-in SPARQL 1.1 Protocol endpoint over Oxigraph (in memory), with the
// tiny slice of Fuseki's admin API the benchmarks use. It exists so the
// "stock CSS on a SPARQL store" target can run even when Fedpod's own
// embedded store (`fedpod store`) is unavailable. No authentication.
//
//   node bench/lib/sparql-store.js --port 3030
//   POST /$/datasets  dbName=bench&dbType=mem   -> creates /bench
//   GET|POST /bench   query=... | update=...    (also direct sparql-query/-update bodies)
//   GET /$/stats      counts of queries (by form) and updates received, so a
//                     benchmark can tell how many store round-trips a request costs
// SPARQL_STORE_LOG=1 in the environment logs every query and update.

const http = require('node:http');
const { parseServerArgs, readBody } = require('./server-util');
const oxigraph = require('oxigraph');

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const RESULTS_JSON = 'application/sparql-results+json';
const TURTLE = 'text/turtle';
const N_TRIPLES = 'application/n-triples';



function send(res, status, body, contentType = 'text/plain') {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

// Query form (SELECT/ASK vs CONSTRUCT/DESCRIBE) decides the result format.
// IRIs and strings are blanked first so a keyword inside them cannot match.
function queryForm(query) {
  const code = query.replace(/<[^>]*>/g, '<>').replace(/"[^"]*"|'[^']*'/g, '""').replace(/#.*$/gm, '');
  const match = /\b(SELECT|ASK|CONSTRUCT|DESCRIBE)\b/i.exec(code);
  return match ? match[1].toUpperCase() : 'SELECT';
}

function graphFormat(accept = '') {
  return accept.includes(TURTLE) || !accept.includes(N_TRIPLES) ? TURTLE : N_TRIPLES;
}

// Pull query/update text from any of the SPARQL protocol's request shapes.
async function readOperation(req, url) {
  if (req.method === 'GET') {
    return { query: url.searchParams.get('query') };
  }
  const body = await readBody(req, MAX_BODY_BYTES);
  const type = (req.headers['content-type'] || '').split(';')[0].trim();
  if (type === 'application/sparql-query') {
    return { query: body };
  }
  if (type === 'application/sparql-update') {
    return { update: body };
  }
  const form = new URLSearchParams(body);
  return { query: form.get('query'), update: form.get('update') };
}

// Requests received, by kind: { ASK: n, CONSTRUCT: n, ..., UPDATE: n }.
const stats = {};

// SPARQL_STORE_LOG=1 echoes every operation to stdout (the server's log file).
const LOG_OPERATIONS = process.env.SPARQL_STORE_LOG === '1';

function count(kind, text) {
  stats[kind] = (stats[kind] || 0) + 1;
  if (LOG_OPERATIONS) {
    process.stdout.write(`${kind}: ${text.replace(/\s+/g, ' ').slice(0, 400)}\n`);
  }
}

function answerQuery(store, req, res, query) {
  const form = queryForm(query);
  count(form, query);
  if (['CONSTRUCT', 'DESCRIBE'].includes(form)) {
    const format = graphFormat(req.headers.accept);
    return send(res, 200, store.query(query, { results_format: format }), format);
  }
  return send(res, 200, store.query(query, { results_format: RESULTS_JSON }), RESULTS_JSON);
}

async function handleDataset(store, req, res, url) {
  const { query, update } = await readOperation(req, url);
  try {
    if (update) {
      count('UPDATE', update);
      store.update(update);
      return send(res, 204, '');
    }
    if (query) {
      return answerQuery(store, req, res, query);
    }
    return send(res, 400, 'missing query or update');
  } catch (error) {
    return send(res, 400, `SPARQL error: ${error.message}`);
  }
}

async function createDataset(datasets, req, res) {
  const form = new URLSearchParams(await readBody(req, MAX_BODY_BYTES));
  const name = form.get('dbName');
  if (!name || !/^[\w-]+$/.test(name)) {
    return send(res, 400, 'dbName required');
  }
  if (datasets.has(name)) {
    return send(res, 409, 'dataset exists');
  }
  datasets.set(name, new oxigraph.Store());
  return send(res, 200, '');
}

function createSparqlServer() {
  const datasets = new Map();
  return http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const handle = async () => {
      if (url.pathname === '/$/ping') {
        return send(res, 200, new Date().toISOString());
      }
      if (url.pathname === '/$/stats') {
        return send(res, 200, JSON.stringify(stats), 'application/json');
      }
      if (url.pathname === '/$/datasets' && req.method === 'POST') {
        return createDataset(datasets, req, res);
      }
      const store = datasets.get(url.pathname.slice(1));
      if (!store) {
        return send(res, 404, 'no such dataset');
      }
      return handleDataset(store, req, res, url);
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
  const server = createSparqlServer();
  server.keepAliveTimeout = 60000;
  server.listen(port, host, () => {
    process.stdout.write(`oxigraph SPARQL store on http://${host}:${server.address().port}/\n`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

module.exports = { createSparqlServer, queryForm };
