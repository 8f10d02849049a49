'use strict';

// Seeds a Fedpod `ldp` data directory with notes the way a user makes them: POST JSON-LD
// into /notes/ over HTTP, a few at a time. Never writes store files or SPARQL directly, so
// the data has whatever shape the server gives it (containers, indexes, metadata).

const { request } = require('../lib/http');

const NOTE_CONTEXT = 'https://www.w3.org/ns/activitystreams';

function noteBody(index) {
  return JSON.stringify({
    '@context': NOTE_CONTEXT,
    type: 'Note',
    name: `Note ${index}`,
    content: `Start-up benchmark note number ${index}, with a few words of text so it looks like a real one.`,
  });
}

/**
 * POSTs `count` notes to `${baseUrl}notes/` with `concurrency` requests in flight.
 * `onProgress(done)` is called every `progressEvery` notes. Throws on the first non-2xx.
 */
async function seedNotes(baseUrl, { count, concurrency = 8, progressEvery = 10000, onProgress = () => undefined }) {
  let next = 0;
  let done = 0;
  const worker = async() => {
    while (next < count) {
      const index = next;
      next += 1;
      const res = await request(`${baseUrl}notes/`, {
        method: 'POST',
        headers: { 'content-type': 'application/ld+json' },
        body: noteBody(index),
        timeoutMs: 60000,
      });
      if (res.status < 200 || res.status >= 300) {
        throw new Error(`POST note ${index} answered ${res.status}: ${res.body.slice(0, 300)}`);
      }
      done += 1;
      if (done % progressEvery === 0) {
        onProgress(done);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return done;
}

module.exports = { seedNotes };
