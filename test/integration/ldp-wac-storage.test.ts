/**
 * The WebACL setup's signup and per-user storage, on two nodes sharing Virtuoso and a data directory:
 * a new user controls `{base}pods/<username>/` and nobody else may touch it; a change of its ACL
 * holds at once on both nodes; reads and JSON POSTs carry the WAC-Allow and Link rel="acl" headers.
 */
import * as fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Parser } from 'n3';
import {
  buildThing, createAclFromFallbackAcl, createSolidDataset, createThing, getSolidDatasetWithAcl, hasAccessibleAcl, hasFallbackAcl,
  hasResourceAcl, saveAclFor, saveSolidDatasetAt, setAgentResourceAccess, setThing,
} from '@inrupt/solid-client';
import { sharedServers } from '../support/env';
import { eventually } from '../support/eventually';
import { startFedpod, type FedpodServer } from '../support/fedpod';
import { makeTempDir } from '../support/processes';

interface Session { token: string; webId: string }

describe('per-user storage under WebACL (config/ldp-wac.json), two nodes', () => {
  let first: FedpodServer;
  let second: FedpodServer;
  let alice: Session;
  let bob: Session;

  async function signup(server: FedpodServer, username: string): Promise<Session> {
    const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, email: `${username}@example.org`, password: 'correct horse battery' }) });
    expect(response.status).toBe(201);
    return await response.json() as Session;
  }

  const as = (session?: Session): Record<string, string> => (session ? { authorization: `Bearer ${session.token}` } : {});

  beforeAll(async() => {
    const dataDir = makeTempDir('fedpod-wac-nodes');
    const endpoint = sharedServers().sparqlEndpoint;
    first = await startFedpod({ config: 'ldp-wac', sparqlEndpoint: endpoint, dataDir });
    // The second node serves the same base URL (as behind one proxy) on its own port.
    second = await startFedpod({ config: 'ldp-wac', sparqlEndpoint: endpoint, dataDir, baseUrl: first.baseUrl });
    alice = await signup(first, `alice${Date.now()}`);
    bob = await signup(first, `bob${Date.now()}`);
  });

  afterAll(async() => {
    await Promise.allSettled([ first?.stop(), second?.stop() ]);
  });

  const storageOf = (session: Session): string => `${first.baseUrl}pods/${session.webId.split('/').at(-1)}/`;
  const onSecond = (url: string): string => url.replace(first.baseUrl, `http://localhost:${second.port}/`);

  it('describes each user storage at its own /.well-known/solid, named by every resource in it', async() => {
    const storage = storageOf(alice);
    const description = `${storage}.well-known/solid`;
    const rel = 'rel="http://www.w3.org/ns/solid/terms#storageDescription"';
    const own = await fetch(storage, { headers: { accept: 'text/turtle', ...as(alice) }});
    expect(own.headers.get('link')).toContain(`<${description}>; ${rel}`);
    // A file read by range is served by CSS's pipeline: the same description.
    expect((await fetch(`${storage}range.txt`, { method: 'PUT', headers: { 'content-type': 'text/plain', ...as(alice) }, body: 'abcdef' })).status)
      .toBe(201);
    const range = await fetch(`${storage}range.txt`, { headers: { range: 'bytes=0-1', ...as(alice) }});
    expect(range.status).toBe(206);
    expect(range.headers.get('link')).toContain(`<${description}>; ${rel}`);
    // Public, as the server's own description is.
    const described = await fetch(description, { headers: { accept: 'text/turtle' }});
    expect(described.status).toBe(200);
    const turtle = await described.text();
    // The description's own subject (`<../>` from it) is the storage, and names the notification gateway.
    const quads = new Parser({ baseIRI: description }).parse(turtle);
    const about = (predicate: string): string[] => quads.filter((entry): boolean => entry.subject.value === storage &&
      entry.predicate.value === predicate).map((entry): string => entry.object.value);
    expect(about('http://www.w3.org/1999/02/22-rdf-syntax-ns#type')).toContain('http://www.w3.org/ns/pim/space#Storage');
    expect(about('http://www.w3.org/ns/solid/terms#notificationGateway')).toEqual([ `${first.baseUrl}.notifications/gateway/` ]);
    expect(turtle).toContain('http://www.w3.org/ns/solid/notifications#WebSocketChannel2023');
    const outside = await fetch(`${first.baseUrl}notes/`, { headers: { accept: 'text/turtle' }});
    expect(outside.headers.get('link')).toContain(`<${first.baseUrl}.well-known/solid>; ${rel}`);
  });

  it('gives a new user a storage only they may read and write', async() => {
    const storage = storageOf(alice);
    const own = await fetch(storage, { headers: { accept: 'application/ld+json', ...as(alice) } });
    expect(own.status).toBe(200);
    expect(own.headers.get('wac-allow')).toBe('user="read write append control",public=""');
    expect(own.headers.get('link')).toContain(`<${storage}.acl>; rel="acl"`);
    expect(own.headers.get('link')).toContain('<http://www.w3.org/ns/pim/space#Storage>; rel="type"');
    // The WebID names it, as Solid apps expect.
    const webId = await (await fetch(alice.webId, { headers: { accept: 'text/turtle' } })).text();
    expect(webId).toContain(`<http://www.w3.org/ns/pim/space#storage> <${storage}>`);
    // Notifications of it only to whoever may read it.
    const subscription = (session?: Session): RequestInit => ({ method: 'POST',
      headers: { 'content-type': 'application/ld+json', ...as(session) },
      body: JSON.stringify({ '@context': [ 'https://www.w3.org/ns/solid/notification/v1' ],
        type: 'http://www.w3.org/ns/solid/notifications#WebSocketChannel2023', topic: storage }) });
    expect((await fetch(`${first.baseUrl}.notifications/WebSocketChannel2023/`, subscription(alice))).status).toBe(200);
    expect((await fetch(`${first.baseUrl}.notifications/WebSocketChannel2023/`, subscription())).status).toBe(401);
    expect((await fetch(`${first.baseUrl}.notifications/WebSocketChannel2023/`, subscription(bob))).status).toBe(403);
    // Its ACL is not one of its members (as CSS lists a container).
    const listing = await (await fetch(storage, { headers: { accept: 'text/turtle', ...as(alice) } })).text();
    expect(listing).toContain('ldp:BasicContainer');
    expect(listing).not.toContain(`<${storage}.acl>`);
    expect((await fetch(storage, { headers: { accept: 'application/ld+json' } })).status).toBe(401);
    expect((await fetch(storage, { headers: { accept: 'application/ld+json', ...as(bob) } })).status).toBe(403);

    const created = await fetch(storage, { method: 'POST', headers: { 'content-type': 'application/ld+json', ...as(alice) },
      body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Note', content: 'mine' }) });
    expect(created.status).toBe(201);
    const note = created.headers.get('location')!;
    expect(note.startsWith(storage)).toBe(true);
    expect(await (await fetch(note, { headers: { accept: 'application/ld+json', ...as(alice) } })).text()).toContain('mine');
    for (const [ session, status ] of [ [ undefined, 401 ], [ bob, 403 ] ] as const) {
      expect((await fetch(note, { headers: { accept: 'application/ld+json', ...as(session) } })).status).toBe(status);
      expect((await fetch(storage, { method: 'POST', headers: { 'content-type': 'application/ld+json', ...as(session) }, body: '{}' })).status).toBe(status);
      expect((await fetch(note, { method: 'DELETE', headers: as(session) })).status).toBe(status);
      expect((await fetch(`${storage}.acl`, { headers: as(session) })).status).toBe(status);
    }
    expect((await fetch(note, { headers: { accept: 'application/ld+json', ...as(alice) } })).status).toBe(200);
    // A browser's page of the storage: its owner sees the note listed; strangers get an error page without it.
    const page = async(session?: Session): Promise<Response> => fetch(storage, { headers: { accept: 'text/html', ...as(session) } });
    const ownPage = await page(alice);
    expect(ownPage.status).toBe(200);
    expect(await ownPage.text()).toContain(`href="${note}"`);
    for (const [ session, status ] of [ [ undefined, 401 ], [ bob, 403 ] ] as const) {
      const refused = await page(session);
      expect(refused.status).toBe(status);
      expect(refused.headers.get('content-type')).toMatch(/^text\/html/u);
      expect(await refused.text()).not.toContain(note);
    }
    // Another spelling of the same resource is checked against the same ACL.
    const spelled = note.replace('/pods/', '/p%6fds/');
    expect((await fetch(spelled, { headers: { accept: 'application/ld+json' } })).status).toBe(401);
    expect((await fetch(spelled, { headers: { accept: 'application/ld+json', ...as(alice) } })).status).toBe(200);
  });

  it('applies an ACL change at once on both nodes', async() => {
    const storage = storageOf(alice);
    const probe = `${storage}shared`;
    const put = await fetch(probe, { method: 'PUT', headers: { 'content-type': 'text/turtle', ...as(alice) }, body: `<${probe}> <urn:p> "hello" .` });
    expect(put.status).toBe(201);
    // Both nodes have decided (and cached) that the public may not read it.
    expect((await fetch(probe, { headers: { accept: 'text/turtle' } })).status).toBe(401);
    expect((await fetch(onSecond(probe), { headers: { accept: 'text/turtle' } })).status).toBe(401);
    const acl = `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${alice.webId}>; acl:mode acl:Read, acl:Write, acl:Control; acl:accessTo <./>; acl:default <./>.
<#public> a acl:Authorization; acl:agentClass <http://xmlns.com/foaf/0.1/Agent>; acl:mode acl:Read; acl:default <./>.`;
    const changed = await fetch(`${storage}.acl`, { method: 'PUT', headers: { 'content-type': 'text/turtle', ...as(alice) }, body: acl });
    expect(changed.status).toBeLessThan(300);
    expect((await fetch(probe, { headers: { accept: 'text/turtle' } })).status).toBe(200);
    const other = await fetch(onSecond(probe), { headers: { accept: 'text/turtle' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('wac-allow')).toBe('user="read",public="read"');
    // The container itself got no public rule (acl:default is for what is in it).
    expect((await fetch(onSecond(storage), { headers: { accept: 'text/turtle' } })).status).toBe(401);
  });

  it('logs no error line for a Solid client\'s writes into a storage, ACL included', async() => {
    // The log lines of exactly this test's requests: between two requests with ids of its own.
    const mark = async(): Promise<string> => {
      const id = randomUUID();
      await (await fetch(`${first.baseUrl}healthz`, { headers: { 'x-request-id': id } })).body?.cancel();
      return id;
    };
    const start = await mark();
    const authed: typeof fetch = async(url, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', as(alice).authorization);
      return fetch(url, { ...init, headers });
    };
    const url = `${storageOf(alice)}client/profile-card`;
    const thing = buildThing(createThing({ url: `${url}#me` })).addStringNoLocale('http://schema.org/name', 'Alice').build();
    await saveSolidDatasetAt(url, setThing(createSolidDataset(), thing), { fetch: authed });
    // As apps share a document: read its ACL (none yet: the storage's applies), then give it one of its own.
    const withAcl = await getSolidDatasetWithAcl(url, { fetch: authed });
    expect(hasResourceAcl(withAcl)).toBe(false);
    if (!hasAccessibleAcl(withAcl) || !hasFallbackAcl(withAcl)) {
      throw new Error(`${url}: no ACL to start from`);
    }
    const acl = setAgentResourceAccess(createAclFromFallbackAcl(withAcl), alice.webId, { read: true, append: true, write: true, control: true });
    await saveAclFor(withAcl, acl, { fetch: authed });
    expect(hasResourceAcl(await getSolidDatasetWithAcl(url, { fetch: authed }))).toBe(true);
    const end = await mark();
    const lines = await eventually(async() => {
      const log = fs.readFileSync(first.logFile, 'utf8').split('\n');
      const from = log.findIndex((line) => line.includes(start));
      const to = log.findIndex((line) => line.includes(end));
      return from >= 0 && to > from && log.slice(from, to);
    });
    expect(lines.filter((line) => line.includes('"/pods/*"')).length).toBeGreaterThan(4);
    expect(lines.filter((line) => /"level":"(?:error|fatal)"/u.test(line))).toEqual([]);
  });

  it('refuses signup names that would be a storage path', async() => {
    const response = await fetch(`${first.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: '..', email: 'x@example.org', password: 'correct horse battery' }) });
    expect(response.status).toBe(400);
  });
});
