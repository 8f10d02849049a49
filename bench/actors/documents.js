'use strict';

// The documents the non-Fedpod targets serve: Fedpod's own answers when it
// is available, otherwise representative ones of the same shape.

const { generateKeyPairSync } = require('node:crypto');

const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
const SECURITY_CONTEXTS = ['https://w3id.org/security/v1', 'https://w3id.org/security/v2'];
// Where representative documents pretend to live; rebased like Fedpod's (a
// 5-digit port like the ephemeral ones the targets get, so sizes stay put).
const PLACEHOLDER_BASE = 'http://localhost:30000/';
const REPRESENTATIVE_ACTOR_BYTES = 1800;

// Stock CSS 7.2 bundles only the ActivityStreams context (rdf-to-quad.json);
// any other context URL would make it fetch from the internet on PUT, so the
// security context is inlined with the terms an actor document uses.
const SECURITY_TERMS = {
  sec: 'https://w3id.org/security#',
  publicKey: { '@id': 'sec:publicKey', '@type': '@id' },
  owner: { '@id': 'sec:owner', '@type': '@id' },
  publicKeyPem: 'sec:publicKeyPem',
};

/**
 * Representative answers (what Fedpod's endpoints return for a fresh user),
 * by scenario id: a Person with an RSA-2048 PEM key, an icon and a summary
 * (1800 bytes, the summary is padded to get there), an empty outbox page and
 * an empty followers collection, a public Note. Only ActivityStreams and security terms.
 */
function representativeDocuments() {
  const { publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const actor = `${PLACEHOLDER_BASE}actors/bench`;
  const collection = (name) => `${actor}/${name}`;
  const documents = {
    'get-actor': {
      '@context': [AS_CONTEXT, SECURITY_CONTEXTS[0], { manuallyApprovesFollowers: 'as:manuallyApprovesFollowers' }],
      id: actor,
      type: 'Person',
      preferredUsername: 'bench',
      name: 'bench',
      url: actor,
      inbox: collection('inbox'),
      outbox: collection('outbox'),
      followers: collection('followers'),
      following: collection('following'),
      liked: collection('liked'),
      endpoints: { sharedInbox: `${PLACEHOLDER_BASE}inbox` },
      summary: '<p>Benchmark account.</p>',
      icon: { type: 'Image', mediaType: 'image/png', url: `${PLACEHOLDER_BASE}media/bench-avatar.png` },
      manuallyApprovesFollowers: false,
      published: new Date().toISOString(),
      publicKey: { id: `${actor}#main-key`, owner: actor, publicKeyPem: publicKey },
    },
    'get-outbox-page': {
      '@context': AS_CONTEXT,
      id: `${collection('outbox')}?page=true`,
      type: 'OrderedCollectionPage',
      partOf: collection('outbox'),
      orderedItems: [],
    },
    'get-note': {
      '@context': AS_CONTEXT,
      id: `${PLACEHOLDER_BASE}objects/bench-note`,
      type: 'Note',
      content: 'A public note of the benchmark account.',
      to: 'https://www.w3.org/ns/activitystreams#Public',
      attributedTo: actor,
      published: new Date().toISOString(),
    },
    'get-followers': {
      '@context': AS_CONTEXT,
      id: collection('followers'),
      type: 'OrderedCollection',
      totalItems: 0,
      first: `${collection('followers')}?page=true`,
    },
  };
  const actorJson = documents['get-actor'];
  const missing = REPRESENTATIVE_ACTOR_BYTES - Buffer.byteLength(JSON.stringify(actorJson));
  actorJson.summary = `<p>Benchmark account.${' x'.repeat(Math.max(0, Math.floor(missing / 2)))}</p>`;
  if (missing > 0 && missing % 2 === 1) {
    actorJson.summary = actorJson.summary.replace('</p>', '.</p>');
  }
  const result = {};
  for (const [id, json] of Object.entries(documents)) {
    result[id] = {
      text: JSON.stringify(json),
      contentType: 'application/activity+json',
      baseUrl: PLACEHOLDER_BASE,
      source: 'representative',
    };
  }
  return result;
}

/** `text` with every occurrence of one base URL replaced by another. */
function rebase(text, fromBase, toBase) {
  return text.split(fromBase).join(toBase);
}

function cssContext(context) {
  if (Array.isArray(context)) {
    return context.map(cssContext);
  }
  if (typeof context !== 'string' || context === AS_CONTEXT) {
    return context;
  }
  if (SECURITY_CONTEXTS.includes(context)) {
    return SECURITY_TERMS;
  }
  throw new Error(`context ${context} is not bundled with stock CSS (it would fetch it from the internet); ` +
    'add an inline replacement in bench/actors/documents.js');
}

/**
 * The document as stock CSS can take it (application/ld+json, only contexts
 * it has locally): same content, security context inlined.
 */
function cssJsonLd(text) {
  const json = JSON.parse(text);
  if (json['@context'] !== undefined) {
    json['@context'] = cssContext(json['@context']);
  }
  return JSON.stringify(json);
}

function documentId(text) {
  try {
    const { id } = JSON.parse(text);
    return typeof id === 'string' ? id : '';
  } catch {
    return '';
  }
}

module.exports = { representativeDocuments, rebase, cssJsonLd, documentId, PLACEHOLDER_BASE };
