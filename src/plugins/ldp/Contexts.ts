import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The JSON-LD contexts Fedpod knows, bundled so that nothing fetches a context over the network
 * at run time (servers should not depend on w3.org being reachable, and test machines have no internet).
 */

export const ACTIVITYSTREAMS_CONTEXT_URL = 'https://www.w3.org/ns/activitystreams';
export const SECURITY_V1_CONTEXT_URL = 'https://w3id.org/security/v1';
export const SECURITY_V2_CONTEXT_URL = 'https://w3id.org/security/v2';

export type JsonObject = Record<string, unknown>;

const ASSETS = path.join(__dirname, '..', '..', '..', 'assets', 'contexts');

function readJson(file: string): JsonObject {
  return JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
}

let cache: Map<string, JsonObject> | undefined;

/** Context documents by URL (both http and https spellings, with and without `.jsonld`). */
export function bundledContexts(): Map<string, JsonObject> {
  if (cache) {
    return cache;
  }
  cache = new Map();
  const activityStreams = readJson(path.join(ASSETS, 'activitystreams.jsonld'));
  for (const url of [ ACTIVITYSTREAMS_CONTEXT_URL, 'http://www.w3.org/ns/activitystreams' ]) {
    cache.set(url, activityStreams);
    cache.set(`${url}.jsonld`, activityStreams);
    cache.set(`${url}#`, activityStreams);
  }
  // The security contexts ship in the security-context package, kept by the W3C CCG.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const security = require('security-context') as { contexts: Map<string, JsonObject> };
  for (const [ url, document ] of security.contexts) {
    cache.set(url, document);
    cache.set(url.replace('https://', 'http://'), document);
  }
  return cache;
}

/** The extra terms of Fedpod's own context on top of ActivityStreams. */
const FEDPOD_EXTRA_TERMS: JsonObject = {
  sec: 'https://w3id.org/security#',
  dc: 'http://purl.org/dc/terms/',
  foaf: 'http://xmlns.com/foaf/0.1/',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  posix: 'http://www.w3.org/ns/posix/stat#',
  // The security terms ActivityPub actors use, so keys compact to `publicKey`, not `sec:publicKey`.
  publicKey: { '@id': 'sec:publicKey', '@type': '@id' },
  publicKeyPem: 'sec:publicKeyPem',
  owner: { '@id': 'sec:owner', '@type': '@id' },
  // Not in the ActivityStreams context; Mastodon defines it so, and reads it on actors.
  manuallyApprovesFollowers: 'as:manuallyApprovesFollowers',
};

/**
 * The document served at {base}/context.json: ActivityStreams terms plus the prefixes
 * ldp, as, sec, xsd, dc, foaf, with id and type aliased, so that compaction gives
 * `ldp:contains`, `ldp:BasicContainer`, `name`, `content` as the interface shows.
 */
export function fedpodContext(): JsonObject {
  const activityStreams = bundledContexts().get(ACTIVITYSTREAMS_CONTEXT_URL)!['@context'] as JsonObject;
  return { '@context': { ...activityStreams, ...FEDPOD_EXTRA_TERMS }};
}

/** Where a server with this base URL serves Fedpod's context. */
export function contextUrlFor(baseUrl: string): string {
  return `${baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`}context.json`;
}

/** The extension Fedpod adds to actor documents' `@context`, as Mastodon does. */
export const ACTOR_CONTEXT_EXTENSION: JsonObject = { manuallyApprovesFollowers: 'as:manuallyApprovesFollowers' };
