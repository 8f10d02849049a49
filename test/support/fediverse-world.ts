/**
 * Stand-ins for the servers that sent the captured activities of test/fixtures/fediverse: one HTTP
 * server on loopback that answers for every host the fixtures name, under `/h/<host>/...`. A GET of
 * any path there is an actor (a Person with the run's public key), a POST is accepted (an Accept
 * sent back to a follower). Fixtures are rewritten to point there and signed the way their software
 * signs, so a real Fedpod (started with --allow-private-network) fetches the key and verifies them.
 * The actors are stand-ins (the fixtures' servers are not reachable here, and their keys are
 * theirs); the activities are the captured ones, with only their hosts moved.
 */
import { createHash, createPublicKey, createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { standInActorDocument } from './stand-in-actor';

/** Hosts of vocabularies, not of servers: their URLs are kept as they are. */
const VOCABULARY_HOSTS = new Set([ 'www.w3.org', 'w3id.org', 'schema.org', 'purl.org', 'joinmastodon.org', 'litepub.social',
  'ostatus.org', 'misskey-hub.net', 'joinpeertube.org', 'gotosocial.org', 'join-lemmy.org', 'www.w3c.org', 'xmlns.com',
  'ns.mobilizon.org', 'funkwhale.audio', 'docs.joinmastodon.org', 'purl.archive.org', 'web-payments.org', 'www.iana.org' ]);

/** How a software signs its deliveries (draft-cavage). */
export interface SigningHabit {
  algorithm: 'rsa-sha256' | 'hs2019';
  headers: string;
  contentType: string;
}

const MASTODON: SigningHabit = { algorithm: 'rsa-sha256', headers: '(request-target) host date digest content-type', contentType: 'application/activity+json' };
const PLAIN: SigningHabit = { algorithm: 'rsa-sha256', headers: '(request-target) host date digest', contentType: 'application/activity+json' };
const HS2019: SigningHabit = { algorithm: 'hs2019', headers: '(request-target) host date digest', contentType: 'application/activity+json' };
const LD_JSON: SigningHabit = { algorithm: 'rsa-sha256', headers: '(request-target) host date digest',
  contentType: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' };

/** Signing habits by software (the fixture folder's name, without a `-x` suffix); PLAIN otherwise. */
const HABITS: Record<string, SigningHabit> = {
  mastodon: MASTODON, gotosocial: MASTODON, pixelfed: MASTODON,
  lemmy: HS2019, lotide: HS2019, mitra: HS2019, mbin: HS2019, misskey: HS2019, sharkey: HS2019,
  peertube: LD_JSON, friendica: LD_JSON, hubzilla: LD_JSON,
};

export function signingHabitOf(software: string): SigningHabit {
  return HABITS[software.replace(/-x$/u, '')] ?? PLAIN;
}

export interface FediverseWorld {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The public key of every actor of this world (one key signs for all of them). */
  publicKeyPem: string;
  /** The fixture's text with every server URL moved under this world (vocabulary URLs kept). */
  rewrite: (text: string) => string;
  /** Serves `document` at `url` (a URL of this world) instead of a stand-in actor. */
  serve: (url: string, document: unknown) => void;
  /** Headers of a signed POST of `body` to `url` by `actor`, the way `habit` signs. */
  sign: (url: string, body: string, actor: string, habit: SigningHabit) => Record<string, string>;
  close: () => Promise<void>;
}

export async function startFediverseWorld(): Promise<FediverseWorld> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  let origin = '';
  const served = new Map<string, string>();
  const server = http.createServer((request, response) => {
    request.resume();
    const path = (request.url ?? '').split('?')[0];
    if (request.method === 'GET' && served.has(path)) {
      response.writeHead(200, { 'content-type': 'application/activity+json' });
      response.end(served.get(path));
      return;
    }
    if (request.method === 'GET' && path.startsWith('/h/')) {
      const actor = `${origin}${path}`;
      response.writeHead(200, { 'content-type': 'application/activity+json' });
      response.end(JSON.stringify(standInActorDocument(actor, publicKeyPem, path.split('/').filter(Boolean).at(-1) ?? 'someone')));
      return;
    }
    response.writeHead(request.method === 'POST' ? 202 : 404, { 'content-type': 'application/json' });
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    publicKeyPem,
    rewrite: (text) => rewriteHosts(text, origin),
    serve: (url, document) => served.set(new URL(url).pathname, JSON.stringify(document)),
    sign: (url, body, actor, habit) => signedHeaders(url, body, actor, habit, privateKey),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Moves `https://host/...` to `<origin>/h/host/...`, in plain and in `\/`-escaped JSON (PHP servers escape slashes). */
function rewriteHosts(text: string, origin: string): string {
  return text.replace(/https?:(\\?\/)\1([A-Za-z0-9.-]+(?::\d+)?)/gu, (url, slash: string, host: string) => {
    if (VOCABULARY_HOSTS.has(host.toLowerCase())) {
      return url;
    }
    return `${origin.replaceAll('/', slash)}${slash}h${slash}${host.toLowerCase()}`;
  });
}

function signedHeaders(url: string, body: string, actor: string, habit: SigningHabit, key: KeyObject): Record<string, string> {
  const target = new URL(url);
  const values: Record<string, string> = {
    '(request-target)': `post ${target.pathname}`,
    host: target.host,
    date: new Date().toUTCString(),
    digest: `SHA-256=${createHash('sha256').update(body).digest('base64')}`,
    'content-type': habit.contentType,
  };
  const names = habit.headers.split(' ');
  const signature = createSign('sha256').update(names.map((name) => `${name}: ${values[name]}`).join('\n')).sign(key, 'base64');
  return {
    'content-type': habit.contentType,
    date: values.date,
    digest: values.digest,
    signature: `keyId="${actor}#main-key",algorithm="${habit.algorithm}",headers="${habit.headers}",signature="${signature}"`,
  };
}
