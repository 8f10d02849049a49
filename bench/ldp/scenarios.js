'use strict';

const { randomBytes } = require('node:crypto');
const { noteBody, JSON_LD, FILE_TYPE, fileBody } = require('./seed');

// A per-run tag keeps POSTed bodies unique across runs as well as requests.
const RUN_TAG = randomBytes(4).toString('hex');
let nextFile = 0;

/**
 * The LDP scenarios. `order` is the execution order: the POST scenario runs
 * last because it keeps adding notes to /notes/, which must still hold
 * exactly the seeded notes while the container GET is measured.
 * Each `request(urls)` builds the load description for one prepared target.
 */
/** The file scenarios of a target that refused the file when seeding are skipped, with its reason. */
function filesRefused(error) {
  throw new Error(`the target does not store files: ${String(error.message || error).split('\n')[0]}`);
}

const SCENARIOS = [
  {
    id: 'get-note',
    label: '(a) GET note',
    order: 1,
    kind: 'GET',
    request: ({ noteUrl }) => ({ url: noteUrl, headers: { accept: JSON_LD } }),
  },
  {
    id: 'post-note',
    label: '(b) POST note',
    order: 3,
    kind: 'POST',
    request: ({ containerUrl }) => ({
      url: containerUrl,
      method: 'POST',
      headers: { 'content-type': JSON_LD },
      makeBody: (counter) => noteBody(`hello ${RUN_TAG}-${counter}`),
    }),
  },
  {
    id: 'get-container',
    label: '(c) GET container',
    order: 2,
    kind: 'GET',
    request: ({ containerUrl }) => ({ url: containerUrl, headers: { accept: JSON_LD } }),
  },
  {
    id: 'get-file',
    label: '(d) GET 100 kB file',
    order: 4,
    kind: 'GET',
    request: ({ fileUrl, fileRefused }) => ({ url: fileUrl ?? filesRefused(fileRefused), headers: { accept: '*/*' } }),
  },
  {
    // A new file per request (overwriting one takes its owner's credentials in Fedpod's LDP setup).
    id: 'put-file',
    label: '(e) PUT 100 kB file',
    order: 5,
    kind: 'PUT',
    request: ({ containerUrl, fileRefused }) => ({
      url: fileRefused ? filesRefused(fileRefused) : `${containerUrl}file-${RUN_TAG}.bin`,
      // Its own sequence: the load tool's counter restarts with each run (warm-up, measurement),
      // and a second PUT of one URL would be an overwrite.
      makeUrl: () => `${containerUrl}file-${RUN_TAG}-${nextFile++}.bin`,
      method: 'PUT',
      headers: { 'content-type': FILE_TYPE },
      body: fileBody(),
    }),
  },
];

function executionOrder(scenarios) {
  return [...scenarios].sort((left, right) => left.order - right.order);
}

module.exports = { SCENARIOS, executionOrder };
