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
 * `ldp:contains`, `ldp:BasicContainer`, `name`, `content` as the documented container listing shows.
 */
export function fedpodContext(): JsonObject {
  const activityStreams = bundledContexts().get(ACTIVITYSTREAMS_CONTEXT_URL)!['@context'] as JsonObject;
  return { '@context': { ...activityStreams, ...FEDPOD_EXTRA_TERMS }};
}

/** Where a server with this base URL serves Fedpod's context. */
export function contextUrlFor(baseUrl: string): string {
  return `${baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`}context.json`;
}

/**
 * Terms fediverse servers use beyond ActivityStreams and the security vocabulary, with the meaning
 * Mastodon gives them (its `toot:` namespace, and the `as:` terms ActivityStreams' context lacks),
 * plus the few that Pleroma/Akkoma (litepub), Misskey and OStatus-era servers send. Fedpod reads
 * every remote document with these as defaults under the sender's own context (a term the sender
 * defines keeps the sender's meaning), so that a sender whose context leaves out `sensitive` or
 * `Hashtag` loses nothing; and it writes them into the `@context` of what it serves, as Mastodon does.
 */
export const FEDIVERSE_TERMS: JsonObject = {
  // Terms no context defines (Lemmy's `Lock`, `removeData` sent with the ActivityStreams context only)
  // are kept under this namespace instead of becoming blank identifiers, and served back by name.
  '@vocab': 'urn:fedpod:term:',
  // Defined here too: a context's prefixes are its own (the document's later contexts do not lend theirs).
  as: 'https://www.w3.org/ns/activitystreams#',
  toot: 'http://joinmastodon.org/ns#',
  schema: 'http://schema.org#',
  litepub: 'http://litepub.social/ns#',
  misskey: 'https://misskey-hub.net/ns#',
  ostatus: 'http://ostatus.org#',
  manuallyApprovesFollowers: 'as:manuallyApprovesFollowers',
  sensitive: 'as:sensitive',
  Hashtag: 'as:Hashtag',
  movedTo: { '@id': 'as:movedTo', '@type': '@id' },
  alsoKnownAs: { '@id': 'as:alsoKnownAs', '@type': '@id' },
  Emoji: 'toot:Emoji',
  featured: { '@id': 'toot:featured', '@type': '@id' },
  featuredTags: { '@id': 'toot:featuredTags', '@type': '@id' },
  discoverable: 'toot:discoverable',
  indexable: 'toot:indexable',
  memorial: 'toot:memorial',
  suspended: 'toot:suspended',
  blurhash: 'toot:blurhash',
  focalPoint: { '@container': '@list', '@id': 'toot:focalPoint' },
  votersCount: 'toot:votersCount',
  PropertyValue: 'schema:PropertyValue',
  value: 'schema:value',
  conversation: 'ostatus:conversation',
  atomUri: 'ostatus:atomUri',
  inReplyToAtomUri: 'ostatus:inReplyToAtomUri',
  EmojiReact: 'litepub:EmojiReact',
  ChatMessage: 'litepub:ChatMessage',
  directMessage: 'litepub:directMessage',
  quoteUrl: 'as:quoteUrl',
  _misskey_content: 'misskey:_misskey_content',
  _misskey_quote: 'misskey:_misskey_quote',
  _misskey_reaction: 'misskey:_misskey_reaction',
  isCat: 'misskey:isCat',
};

/** The namespace of terms a fediverse document uses without defining them (see FEDIVERSE_TERMS). */
export const UNDEFINED_TERMS_VOCAB = FEDIVERSE_TERMS['@vocab'] as string;

/**
 * Context URLs of fediverse vocabularies that do not serve a usable JSON-LD context (Mastodon's
 * namespace is a web page) or that each server serves from its own host (Pleroma's litepub
 * schema): read as FEDIVERSE_TERMS. `/schemas/litepub-0.1.jsonld` is matched on any host.
 */
const FEDIVERSE_CONTEXT_URLS = [
  'http://joinmastodon.org/ns', 'https://joinmastodon.org/ns', 'https://litepub.social/litepub/context.jsonld',
  'https://misskey-hub.net/ns', 'https://gotosocial.org/ns',
];
const LITEPUB_SCHEMA_PATH = '/schemas/litepub-0.1.jsonld';

/** Whether a context URL is one of a fediverse vocabulary that FEDIVERSE_TERMS stands for. */
export function isFediverseContextUrl(url: string): boolean {
  return FEDIVERSE_CONTEXT_URLS.includes(url) || url.endsWith(LITEPUB_SCHEMA_PATH);
}
