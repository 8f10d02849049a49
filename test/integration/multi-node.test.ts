/**
 * Two Fedpod nodes on one store (the run's Virtuoso) and one Redis (a private database), sharing one
 * data directory and one public base URL, behind a round-robin proxy: every write path must hold
 * across processes (Redis locks, BullMQ queues, caches revalidated against shared state).
 */
import * as path from 'node:path';
import type { FedpodServer } from '../support/fedpod';
import { startNodePair, type NodeAnswer, type NodePair } from '../support/node-pair';
import { REPO_ROOT } from '../support/processes';

/** The ActivityPub setup with public append under /notes/, for the LDP POST burst. */
const PUBLIC_APPEND_CONFIG = path.join(REPO_ROOT, 'test', 'fixtures', 'config', 'activitypub-public-append.json');
import type { RoundRobinProxy } from '../support/round-robin-proxy';
import { sparqlSelect } from '../support/sparql';
import { eventually as eventuallyWithin } from '../support/eventually';
import { itemIds } from '../support/collections';

const AS = 'https://www.w3.org/ns/activitystreams';
const LDP_CONTAINS = 'http://www.w3.org/ns/ldp#contains';

interface Session { token: string; webId: string }

describe('several Fedpod nodes on one store and one Redis', () => {
  let pair: NodePair | undefined;
  let proxy: RoundRobinProxy;
  let nodes: FedpodServer[] = [];
  let base: string;
  let endpoint: string;
  const run = Date.now().toString(36);

  /** A request to the proxy (target 'proxy') or straight to one node, always with the public Host; each on its own connection. */
  function call(target: 'proxy' | FedpodServer, method: string, path: string,
    options: { headers?: Record<string, string>; body?: string } = {}): Promise<NodeAnswer> {
    return pair!.call(target, method, path, options);
  }

  function json(body: unknown): { headers: Record<string, string>; body: string } {
    return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  }

  async function signup(target: 'proxy' | FedpodServer, username: string): Promise<Session> {
    const answer = await call(target, 'POST', '/auth/signup',
      json({ username, email: `${username}@example.com`, password: 'correct horse battery' }));
    expect(answer.status).toBe(201);
    return JSON.parse(answer.body) as Session;
  }

  async function toOutbox(target: 'proxy' | FedpodServer, session: Session, activity: unknown): Promise<NodeAnswer> {
    return call(target, 'POST', `${session.webId}/outbox`, { headers: { 'content-type': 'application/activity+json',
      authorization: `Bearer ${session.token}` }, body: JSON.stringify(activity) });
  }

  async function items(collection: string): Promise<string[]> {
    const answer = await call('proxy', 'GET', `${collection}?page=true`, { headers: { accept: 'application/activity+json' } });
    expect(answer.status).toBe(200);
    return itemIds(JSON.parse(answer.body) as { orderedItems: unknown });
  }

  const eventually = <T>(check: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> =>
    eventuallyWithin(check, timeoutMs, 500);

  async function select(query: string): Promise<Record<string, string>[]> {
    const rows = await sparqlSelect(endpoint, query);
    return rows.map((row) => Object.fromEntries(Object.entries(row).map(([ key, term ]) => [ key, term.value ])));
  }

  beforeAll(async() => {
    const started = await startNodePair(PUBLIC_APPEND_CONFIG, 'fedpod-nodes', (startedPair) => {
      pair = startedPair;
    });
    ({ nodes, endpoint, base, proxy } = started);
  }, 300_000);

  afterAll(async() => {
    await pair?.stop();
  });

  it('gives 1,000 concurrent POSTs to one container exactly 1,000 members, Slug collisions included', async() => {
    const container = `${base}notes/burst-${run}/`;
    expect((await call('proxy', 'PUT', container, { headers: { 'content-type': 'text/turtle' }, body: '' })).status).toBe(201);
    const total = 1000;
    const answers = await Promise.all(Array.from({ length: total }, async(_unused, index) => {
      // Half ask for one of ten names: only the Redis lock keeps two nodes from both taking one.
      const slug: Record<string, string> = index % 2 === 0 ? { slug: `name-${index % 20}` } : {};
      return call('proxy', 'POST', container, { headers: { 'content-type': 'application/ld+json', ...slug },
        body: JSON.stringify({ '@context': AS, type: 'Note', name: `note ${index}`, content: `${run}-${index}` }) });
    }));
    expect(answers.filter((answer) => answer.status !== 201).map((answer) => `${answer.status} ${answer.body}`)).toEqual([]);
    const locations = new Set(answers.map((answer) => answer.headers.location));
    expect(locations.size).toBe(total);
    expect([ ...proxy.forwarded.values() ].filter((count) => count > 0)).toHaveLength(2);

    const [ counted ] = await select(`SELECT (COUNT(DISTINCT ?m) AS ?n) WHERE { GRAPH <${container}> { <${container}> <${LDP_CONTAINS}> ?m } }`);
    expect(Number(counted.n)).toBe(total);
    const contents = await select(`SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { GRAPH ?m { ?m <${AS}#content> ?c } FILTER(STRSTARTS(STR(?m), "${container}")) }`);
    expect(Number(contents[0].n)).toBe(total);

    // The listing, page after page (Link rel="next"), through either node.
    const listed = new Set<string>();
    let page: string | undefined = container;
    while (page) {
      const answer = await call('proxy', 'GET', page, { headers: { accept: 'application/ld+json' } });
      expect(answer.status).toBe(200);
      const members = (JSON.parse(answer.body) as { 'ldp:contains': { id: string }[] })['ldp:contains'];
      for (const member of members) listed.add(member.id);
      const link = String(answer.headers.link ?? '');
      page = /<([^>]+)>;\s*rel="next"/u.exec(link)?.[1];
    }
    expect(listed).toEqual(locations);
  }, 600_000);

  it('accepts each of many concurrent follows between local actors once, with followers without duplicates', async() => {
    const names = Array.from({ length: 5 }, (_unused, index) => `f${run}${index}`);
    const sessions = await Promise.all(names.map(async(name) => signup('proxy', name)));
    const follows: { follower: number; followed: number }[] = [];
    for (let follower = 0; follower < sessions.length; follower++) {
      for (let followed = 0; followed < sessions.length; followed++) {
        if (follower !== followed) follows.push({ follower, followed });
      }
    }
    // The same follow three times more, at once: three more Accepts, still one follower.
    follows.push(...Array.from({ length: 3 }, () => ({ follower: 0, followed: 1 })));
    const posted = await Promise.all(follows.map(async({ follower, followed }) => {
      const answer = await toOutbox('proxy', sessions[follower], { '@context': AS, type: 'Follow', object: sessions[followed].webId });
      expect(answer.status).toBe(201);
      return (JSON.parse(answer.body) as { id: string }).id;
    }));
    const others = (index: number): string[] => sessions.filter((_session, other) => other !== index).map((session) => session.webId).sort();
    for (const [ index, session ] of sessions.entries()) {
      const following = await eventually(async() => {
        const list = await items(`${session.webId}/following`);
        return list.length >= sessions.length - 1 ? list : undefined;
      });
      expect([ ...following ].sort()).toEqual(others(index));
      // The Follows *to* this actor are other jobs than the Accepts of its own: wait for them as well.
      const followers = await eventually(async() => {
        const list = await items(`${session.webId}/followers`);
        return list.length >= sessions.length - 1 ? list : undefined;
      });
      expect([ ...followers ].sort()).toEqual(others(index));
    }
    // Every Follow was answered by exactly one Accept.
    const accepts = await eventually(async() => {
      const rows = await select(`SELECT ?follow (COUNT(DISTINCT ?accept) AS ?n) WHERE {
  GRAPH ?accept { ?accept a <${AS}#Accept> ; <${AS}#object> ?follow }
  FILTER(STRSTARTS(STR(?accept), "${base}activities/")) FILTER(STRSTARTS(STR(?follow), "${base}activities/"))
} GROUP BY ?follow`);
      const mine = rows.filter((row) => posted.includes(row.follow));
      return mine.length === posted.length ? mine : undefined;
    });
    expect(accepts.filter((row) => row.n !== '1')).toEqual([]);
  }, 600_000);

  it('runs each job of a burst of webhook POSTs once (post-to-outbox makes one Create per run) and loses none', async() => {
    const user = await signup('proxy', `w${run}`);
    const hook = async(action: string): Promise<string> => {
      const answer = await call('proxy', 'POST', '/webhooks', { headers: { 'content-type': 'application/json',
        authorization: `Bearer ${user.token}` }, body: JSON.stringify({ action }) });
      expect(answer.status).toBe(201);
      return answer.headers.location!;
    };
    const store = await hook('store-in-container');
    const outbox = await hook('post-to-outbox');
    const total = 100;
    const answers = await Promise.all(Array.from({ length: total * 2 }, async(_unused, index) => {
      const marker = `${run}-hook-${index}`;
      const body = index % 2 === 0 ? { marker } : { '@context': AS, type: 'Note', content: marker, to: [ `${AS}#Public` ] };
      return call('proxy', 'POST', index % 2 === 0 ? store : outbox, json(body));
    }));
    expect(answers.filter((answer) => answer.status !== 202).map((answer) => `${answer.status} ${answer.body}`)).toEqual([]);

    const container = `${base}webhook-data/w${run}/`;
    const stored = await eventually(async() => {
      const [ row ] = await select(`SELECT (COUNT(DISTINCT ?m) AS ?n) WHERE { GRAPH <${container}> { <${container}> <${LDP_CONTAINS}> ?m } }`);
      return Number(row.n) >= total ? Number(row.n) : undefined;
    });
    expect(stored).toBe(total);
    const created = await eventually(async() => {
      const rows = await select(`SELECT ?c (COUNT(DISTINCT ?o) AS ?n) WHERE { GRAPH ?o { ?o <${AS}#content> ?c }
  FILTER(STRSTARTS(STR(?o), "${base}objects/")) FILTER(STRSTARTS(STR(?c), "${run}-hook-")) } GROUP BY ?c`);
      return rows.length >= total ? rows : undefined;
    });
    expect(created).toHaveLength(total);
    expect(created.filter((row) => row.n !== '1')).toEqual([]);
  }, 600_000);

  it('logs in and posts on one node right after signup on the other', async() => {
    const [ first, second ] = nodes;
    const username = `s${run}`;
    const session = await signup(first, username);
    const login = await call(second, 'POST', '/auth/login', json({ username, password: 'correct horse battery' }));
    expect(login.status).toBe(200);
    const again = JSON.parse(login.body) as Session;
    expect(again.webId).toBe(session.webId);
    expect((await toOutbox(second, again, { '@context': AS, type: 'Note', content: 'from the other node' })).status).toBe(201);
    expect((await toOutbox(second, session, { '@context': AS, type: 'Note', content: 'with the signup token' })).status).toBe(201);
    expect((await call(second, 'GET', session.webId, { headers: { accept: 'application/activity+json' } })).status).toBe(200);
  });

  it('refuses on one node, right away, a webhook revoked through the other', async() => {
    const [ first, second ] = nodes;
    const user = await signup(first, `r${run}`);
    const generated = await call(first, 'POST', '/webhooks', { headers: { 'content-type': 'application/json',
      authorization: `Bearer ${user.token}` }, body: JSON.stringify({ action: 'store-in-container' }) });
    expect(generated.status).toBe(201);
    const uri = generated.headers.location!;
    // Known (and cached) on both nodes first.
    expect((await call(second, 'POST', uri, json({ n: 1 }))).status).toBe(202);
    expect((await call(first, 'POST', uri, json({ n: 2 }))).status).toBe(202);
    expect((await call(first, 'DELETE', uri, { headers: { authorization: `Bearer ${user.token}` } })).status).toBe(204);
    expect((await call(second, 'POST', uri, json({ n: 3 }))).status).toBe(404);
    expect((await call(first, 'POST', uri, json({ n: 4 }))).status).toBe(404);
  });
});
