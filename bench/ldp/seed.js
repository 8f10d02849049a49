'use strict';

const { request, expectStatus } = require('../lib/http');

const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
const JSON_LD = 'application/ld+json';
const SEED_CONCURRENCY = 4;
const FILE_TYPE = 'application/octet-stream';
const FILE_BYTES = 100 * 1024;

/** The 100 kB file of the file scenarios (the same bytes every time: the server cannot know). */
function fileBody() {
  return Buffer.alloc(FILE_BYTES, 'fedpod-bench ');
}

/** PUT the file the GET scenario reads; refuse a target that does not serve it back byte for byte. */
async function prepareFile(containerUrl) {
  const fileUrl = `${containerUrl}bench-file.bin`;
  await expectStatus(fileUrl, { method: 'PUT', headers: { 'content-type': FILE_TYPE }, body: fileBody() }, [200, 201, 204, 205]);
  // The body is ASCII, so the text the request helper returns is the bytes.
  const served = await request(fileUrl, { headers: { accept: '*/*' } });
  if (served.status !== 200 || served.body !== fileBody().toString('utf8')) {
    throw new Error(`GET ${fileUrl} does not serve the file back (status ${served.status}, ${served.body.length} characters)`);
  }
  return fileUrl;
}

function noteBody(content) {
  return JSON.stringify({ '@context': AS_CONTEXT, type: 'Note', name: 'n', content });
}

// Create the container unless it already exists (Fedpod creates /notes/ itself).
async function ensureContainer(containerUrl) {
  const existing = await request(containerUrl, { headers: { accept: 'text/turtle' } });
  if (existing.status === 200) {
    return 'existed';
  }
  await expectStatus(containerUrl, {
    method: 'PUT',
    headers: {
      'content-type': 'text/turtle',
      link: '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"',
    },
    body: '',
  }, [200, 201, 204, 205]);
  return 'created';
}

async function postNote(containerUrl, content) {
  const res = await expectStatus(containerUrl, {
    method: 'POST',
    headers: { 'content-type': JSON_LD },
    body: noteBody(content),
  }, [201]);
  if (!res.headers.location) {
    throw new Error(`POST ${containerUrl} answered 201 without Location`);
  }
  return new URL(res.headers.location, containerUrl).href;
}

// POST `count` notes with a few requests in flight; resolves to their URLs.
async function seedNotes(containerUrl, count) {
  const locations = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      locations[index] = await postNote(containerUrl, `seed note ${index}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEED_CONCURRENCY, count) }, worker));
  return locations;
}

// Refuse to benchmark a target whose answers are not what the scenarios
// claim to measure (e.g. an empty container or a note without its content).
async function verifySeed({ noteUrl, containerUrl, locations }) {
  const note = await expectStatus(noteUrl, { headers: { accept: JSON_LD } }, [200]);
  if (!note.body.includes('seed note 0')) {
    throw new Error(`GET ${noteUrl} does not contain the note's content: ${note.body.slice(0, 200)}`);
  }
  const container = await expectStatus(containerUrl, { headers: { accept: JSON_LD } }, [200]);
  const listed = locations.filter((location) => container.body.includes(location)).length;
  if (listed !== locations.length) {
    throw new Error(`GET ${containerUrl} lists ${listed} of the ${locations.length} seeded notes`);
  }
  return {
    noteContentType: note.headers['content-type'],
    noteBytes: Buffer.byteLength(note.body),
    containerContentType: container.headers['content-type'],
    containerBytes: Buffer.byteLength(container.body),
  };
}

/** Make `<baseUrl><containerPath>` exist and hold `count` fresh notes; resolves to the URLs to load. */
async function prepareNotes(baseUrl, count, containerPath = 'notes/') {
  const containerUrl = `${baseUrl}${containerPath}`;
  const container = await ensureContainer(containerUrl);
  const locations = await seedNotes(containerUrl, count);
  const noteUrl = locations[0];
  const shape = await verifySeed({ noteUrl, containerUrl, locations });
  // A target that keeps RDF only (stock CSS on a SPARQL store answers 501) still runs the RDF scenarios.
  const file = await prepareFile(containerUrl).then((url) => ({ url }), (error) => ({ error }));
  return { containerUrl, noteUrl, fileUrl: file.url, fileRefused: file.error, container, shape };
}

module.exports = { prepareNotes, noteBody, fileBody, AS_CONTEXT, JSON_LD, FILE_TYPE };
