'use strict';

// Statuses written straight into a running Fedpod's embedded store, in Fedpod's own layout, so that
// 100,000 of them take a minute or two rather than 100,000 outbox POSTs. The layout is not written
// here: one status posted through the outbox (and delivered) is the template, its quads read back
// from the store and copied with new names, times and buckets.

const { v7: uuidv7 } = require('uuid');
const { request, basicAuth } = require('../lib/http');

const STORE_USER = { user: 'admin', password: 'admin' };
const DATASET = 'localData';
const FEDPOD = 'https://fedpod.dev/ns#';
const XSD_DATETIME = 'http://www.w3.org/2001/XMLSchema#dateTime';
const AS_ITEMS = 'https://www.w3.org/ns/activitystreams#items';
const BUCKET_SIZE = 256;
// Quads per Graph Store POST.
const BATCH = 20000;

function storeUrl(port, path) {
  return `http://127.0.0.1:${port}/${DATASET}/${path}`;
}

async function storeRequest(port, path, contentType, body, accept) {
  const res = await request(storeUrl(port, path), { method: 'POST', timeoutMs: 600000, body,
    headers: { 'content-type': contentType, authorization: basicAuth(STORE_USER.user, STORE_USER.password), ...accept ? { accept } : {} } });
  if (res.status < 200 || res.status > 299) {
    throw new Error(`store ${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
  }
  return res.body;
}

async function select(port, query) {
  const body = await storeRequest(port, 'query', 'application/x-www-form-urlencoded', `query=${encodeURIComponent(query)}`,
    'application/sparql-results+json');
  return JSON.parse(body).results.bindings;
}

async function update(port, text) {
  await storeRequest(port, 'update', 'application/x-www-form-urlencoded', `update=${encodeURIComponent(text)}`);
}

function escapeLiteral(value) {
  return value.replace(/\\/gu, '\\\\').replace(/"/gu, '\\"').replace(/\n/gu, '\\n').replace(/\r/gu, '\\r');
}

function term(binding) {
  if (binding.type === 'uri') {
    return `<${binding.value}>`;
  }
  if (binding.type === 'bnode') {
    return `_:${binding.value}`;
  }
  const text = `"${escapeLiteral(binding.value)}"`;
  if (binding['xml:lang']) {
    return `${text}@${binding['xml:lang']}`;
  }
  return binding.datatype ? `${text}^^<${binding.datatype}>` : text;
}

const uuidOf = (iri) => iri.split('/').pop();

/**
 * The quads of one status: its activity and object graphs (and their metadata), and its entries in
 * the collections that hold it (the poster's outbox, the inboxes it reached) and their indexes.
 */
async function statusTemplate(port, activity, object) {
  const names = [activity, object].map((iri) => `<${iri}>`).join(', ');
  const ids = [uuidOf(activity), uuidOf(object)];
  const rows = await select(port, `SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o }
  FILTER(CONTAINS(STR(?g), "${ids[0]}") || CONTAINS(STR(?g), "${ids[1]}") || ?s IN (${names}) || ?o IN (${names})) }`);
  if (rows.length === 0) {
    throw new Error(`no quads found for ${activity}`);
  }
  return { activity, object, ids, rows };
}

/** The graph of a list's paging index, and the list it indexes. */
const INDEX_PREFIX = 'urn:fedpod:index:';

/**
 * Writes `count` copies of the template, older than everything in the lists they join: the lists'
 * present buckets are moved up to make room, and the copies fill the buckets below, oldest first
 * (as if they had been posted before). `skipGraphs`: graphs of the template left out (the poster's
 * outbox, for another author's statuses); `renames`: [from, to] replaced in every term (the poster by
 * another author, the reader by another reader); `authors`: that many authors, `author-<n>`
 * round-robin in place of the poster. The lists' totals are dropped (counted again once). Resolves to
 * the quads written.
 */
async function seedStatuses(port, template, { count, skipGraphs = [], renames = [], oldestBefore, authors }) {
  const renamed = (value) => renames.reduce((text, [from, to]) => text.split(from).join(to), value);
  const rows = template.rows.filter((row) => !skipGraphs.includes(row.g.value))
    .map((row) => Object.fromEntries(Object.entries(row).map(([key, binding]) => [key, { ...binding, value: renamed(binding.value) }])));
  const lists = [...new Set(rows.filter((row) => row.p.value === `${FEDPOD}inBucket`)
    .map((row) => row.g.value.slice(INDEX_PREFIX.length)))];
  const bucketsNeeded = Math.ceil(count / BUCKET_SIZE);
  for (const list of lists) {
    const graph = `<${INDEX_PREFIX}${list}>`;
    // The list's present entries move up by the buckets the older copies take.
    await update(port, `DELETE { GRAPH ${graph} { ?m <${FEDPOD}inBucket> ?b } } INSERT { GRAPH ${graph} { ?m <${FEDPOD}inBucket> ?nb } }
WHERE { GRAPH ${graph} { ?m <${FEDPOD}inBucket> ?b } BIND(?b + ${bucketsNeeded} AS ?nb) } ;
DELETE { GRAPH ${graph} { <${list}> <${FEDPOD}bucket> ?b } } INSERT { GRAPH ${graph} { <${list}> <${FEDPOD}bucket> ?nb } }
WHERE { GRAPH ${graph} { <${list}> <${FEDPOD}bucket> ?b } BIND(?b + ${bucketsNeeded} AS ?nb) } ;
DELETE WHERE { GRAPH ${graph} { <${list}> <${FEDPOD}total> ?n } }`);
  }
  let written = 0;
  let lines = [];
  const flush = async () => {
    if (lines.length > 0) {
      await storeRequest(port, 'data', 'application/n-quads', `${lines.join('\n')}\n`);
      written += lines.length;
      lines = [];
    }
  };
  for (const list of lists) {
    for (let bucket = 0; bucket < bucketsNeeded; bucket++) {
      lines.push(`<${list}> <${FEDPOD}bucket> "${bucket}"^^<http://www.w3.org/2001/XMLSchema#integer> <${INDEX_PREFIX}${list}> .`);
    }
  }
  for (let i = 0; i < count; i++) {
    // One millisecond apart, the newest a second before the oldest thing in the lists.
    const time = new Date(oldestBefore.getTime() - 1000 - (count - i));
    const names = [uuidv7({ msecs: time.getTime() }), uuidv7({ msecs: time.getTime() })];
    const rename = (value) => {
      const text = value.split(template.ids[0]).join(names[0]).split(template.ids[1]).join(names[1]);
      return authors ? text.split(authors.poster).join(`${authors.base}author-${i % authors.count}`) : text;
    };
    const bucket = Math.floor(i / BUCKET_SIZE);
    for (const row of rows) {
      const copy = (binding) => (binding.type === 'literal' && binding.datatype === XSD_DATETIME ?
        { ...binding, value: time.toISOString() } :
        { ...binding, value: rename(binding.value) });
      const object = row.p.value === `${FEDPOD}inBucket` ? { ...row.o, value: String(bucket) } : copy(row.o);
      lines.push(`${term(copy(row.s))} ${term(copy(row.p))} ${term(object)} ${term(copy(row.g))} .`);
    }
    if (lines.length >= BATCH) {
      await flush();
    }
  }
  await flush();
  return { quads: written, oldest: new Date(oldestBefore.getTime() - 1000 - count) };
}

/**
 * Items added straight to a collection (a user's following), with its index: appended after its
 * present buckets. Its total is dropped.
 */
async function seedItems(port, collection, items, at) {
  const graph = `${INDEX_PREFIX}${collection}`;
  const [row] = await select(port, `SELECT (MAX(?b) AS ?head) WHERE { GRAPH <${graph}> { <${collection}> <${FEDPOD}bucket> ?b } }`);
  const first = row && row.head ? Number(row.head.value) + 1 : 0;
  const lines = items.flatMap((item, i) => {
    const bucket = first + Math.floor(i / BUCKET_SIZE);
    return [
      `<${collection}> <${AS_ITEMS}> <${item}> <${collection}> .`,
      `<${item}> <${FEDPOD}addedAt> "${at.toISOString()}"^^<${XSD_DATETIME}> <${collection}> .`,
      `<${item}> <${FEDPOD}inBucket> "${bucket}"^^<http://www.w3.org/2001/XMLSchema#integer> <${graph}> .`,
      `<${collection}> <${FEDPOD}bucket> "${bucket}"^^<http://www.w3.org/2001/XMLSchema#integer> <${graph}> .`,
    ];
  });
  await storeRequest(port, 'data', 'application/n-quads', `${lines.join('\n')}\n`);
  await update(port, `DELETE WHERE { GRAPH <${graph}> { <${collection}> <${FEDPOD}total> ?n } }`);
}

module.exports = { statusTemplate, seedStatuses, seedItems, select };
