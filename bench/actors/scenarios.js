'use strict';

const ACTIVITY_JSON = 'application/activity+json';
const JSON_LD = 'application/ld+json';

/**
 * The actor scenarios, all GETs of one JSON-LD document.
 * - fedpodUrl(actorUrl, prepared): what Fedpod is asked for (prepared.noteUrl: a public note
 *   posted at sign-up; actorUrl = the webId
 *   returned by signup, without any fragment), with Accept: application/activity+json.
 * - copyPath: where the other targets keep a copy of Fedpod's answer (stock
 *   CSS cannot hold both /actors/bench and /actors/bench/..., so the
 *   collections get paths of their own), fetched with Accept: application/ld+json.
 * - type / check(json): what Fedpod's answer must be for the row to count.
 */
const SCENARIOS = [
  {
    id: 'get-actor',
    label: '(a) GET actor',
    kind: 'GET',
    fedpodUrl: (actorUrl) => actorUrl,
    copyPath: 'actors/bench',
    type: 'Person',
    check: (json, actorUrl) => {
      if (json.id !== actorUrl) {
        return `id is ${JSON.stringify(json.id)}, not the webId ${actorUrl}`;
      }
      const pem = json.publicKey && json.publicKey.publicKeyPem;
      return typeof pem === 'string' && pem.includes('BEGIN PUBLIC KEY') ? '' : 'no publicKey.publicKeyPem';
    },
  },
  {
    id: 'get-outbox-page',
    label: '(b) GET outbox page',
    kind: 'GET',
    fedpodUrl: (actorUrl) => `${actorUrl}/outbox?page=true`,
    copyPath: 'actors/bench-outbox-page',
    type: 'OrderedCollectionPage',
    check: (json) => (json.orderedItems === undefined || Array.isArray(json.orderedItems) ? '' :
      'orderedItems is not an array'),
  },
  {
    // A public note: every GET passes the audience rules (ActivityPub objects are read by their audience).
    id: 'get-note',
    label: '(d) GET public note',
    kind: 'GET',
    fedpodUrl: (actorUrl, prepared) => prepared.noteUrl,
    copyPath: 'actors/bench-note',
    type: 'Note',
    check: (json) => (typeof json.content === 'string' && json.content.includes('benchmark') ? '' : 'not the posted note'),
  },
  {
    id: 'get-followers',
    label: '(c) GET followers',
    kind: 'GET',
    fedpodUrl: (actorUrl) => `${actorUrl}/followers`,
    copyPath: 'actors/bench-followers',
    type: 'OrderedCollection',
    check: (json) => (typeof json.totalItems === 'number' ? '' : 'no numeric totalItems'),
  },
];

function hasType(json, type) {
  const types = Array.isArray(json.type) ? json.type : [json.type];
  return types.includes(type) || types.includes(`as:${type}`);
}

/**
 * Why Fedpod's answer to `scenario` is not what the row claims to measure,
 * or '' when it is. `res` is an http.js response.
 */
function problemWithFedpodAnswer(scenario, res, actorUrl) {
  if (res.status !== 200) {
    return `answered ${res.status}: ${res.body.slice(0, 160).replace(/\s+/g, ' ')}`;
  }
  const contentType = String(res.headers['content-type'] || '');
  if (!/json/.test(contentType)) {
    return `answered Content-Type ${contentType || '(none)'}, not JSON`;
  }
  let json;
  try {
    json = JSON.parse(res.body);
  } catch {
    return 'answered invalid JSON';
  }
  if (!hasType(json, scenario.type)) {
    return `answered type ${JSON.stringify(json.type)}, not ${scenario.type}`;
  }
  return scenario.check(json, actorUrl);
}

module.exports = { SCENARIOS, problemWithFedpodAnswer, ACTIVITY_JSON, JSON_LD };
