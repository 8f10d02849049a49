/**
 * Accounts and actors end to end: the real server (config/activitypub.json) on the embedded store.
 */
import { createPublicKey } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importJWK, SignJWT } from 'jose';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { freePort } from '../../support/ports';
import { httpRequest } from '../../support/sparql';
import { itemIds } from '../../support/collections';

const AS = 'https://www.w3.org/ns/activitystreams#';

interface Session { token: string; webId: string; newUser: boolean }

async function signup(server: FedpodServer, body: unknown, contentType = 'application/json'): Promise<Response> {
  return fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body) });
}

async function login(server: FedpodServer, body: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body) });
}

async function expectJsonError(response: Response, status: number, error?: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toContain('application/json');
  const body = await response.json() as { error: string; message: string };
  if (error) expect(body.error).toBe(error);
  expect(body.message.length).toBeGreaterThan(0);
}

function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('accounts and actors', () => {
  let server: FedpodServer;
  let alice: Session;
  const storeQuery = (): string => `http://127.0.0.1:${server.storePort}/localData/query`;

  async function ask(query: string): Promise<boolean> {
    const answer = await httpRequest(storeQuery(), { method: 'POST', body: `query=${encodeURIComponent(query)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json',
        authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` } });
    expect(answer.status).toBe(200);
    return (JSON.parse(answer.body) as { boolean: boolean }).boolean;
  }

  function accountFiles(): string[] {
    const dir = path.join(server.dataDir, 'accounts', 'users');
    return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  }

  function actorDirs(): string[] {
    const dir = path.join(server.dataDir, 'actors');
    return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  }

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('signs up: 201, Location, token and WebID', async() => {
    const response = await signup(server, { username: 'alice', email: 'Alice@Example.com', password: 'correct horse' });
    expect(response.status).toBe(201);
    alice = await response.json() as Session;
    expect(alice.newUser).toBe(true);
    expect(alice.webId).toBe(`${server.baseUrl}actors/alice`);
    expect(response.headers.get('location')).toBe(alice.webId);
    const [ header ] = alice.token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString('utf8'))).toMatchObject({ alg: 'ES256' });
    const claims = payloadOf(alice.token);
    expect(claims).toMatchObject({ webId: alice.webId, sub: alice.webId, iss: server.baseUrl });
    expect(typeof claims.iat).toBe('number');
    expect(Number(claims.exp) - Number(claims.iat)).toBe(604_800);
  });

  it('logs in by username and by email; a wrong password or unknown user is the same 401', async() => {
    for (const body of [ { username: 'alice', password: 'correct horse' }, { email: 'alice@example.COM', password: 'correct horse' } ]) {
      const response = await login(server, body);
      expect(response.status).toBe(200);
      const session = await response.json() as Session;
      expect(session).toMatchObject({ webId: alice.webId, newUser: false });
      expect(payloadOf(session.token).webId).toBe(alice.webId);
    }
    const wrong = await login(server, { username: 'alice', password: 'wrong horse' });
    const unknown = await login(server, { username: 'nobody', password: 'correct horse' });
    const bodies = [ await wrong.json(), await unknown.json() ];
    expect([ wrong.status, unknown.status ]).toEqual([ 401, 401 ]);
    expect(bodies[0]).toEqual(bodies[1]);
  });

  it('serves the actor with every field of the documented actor, as ActivityStreams JSON-LD', async() => {
    for (const accept of [ 'application/activity+json', 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"',
      'application/ld+json', 'application/json' ]) {
      const response = await fetch(alice.webId, { headers: { accept } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain(accept.split(';')[0]);
      const actor = await response.json() as Record<string, unknown>;
      expect(actor['@context']).toEqual(expect.arrayContaining([ 'https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1' ]));
      expect(actor).toMatchObject({
        id: alice.webId,
        type: 'Person',
        preferredUsername: 'alice',
        name: 'alice',
        url: alice.webId,
        inbox: `${alice.webId}/inbox`,
        outbox: `${alice.webId}/outbox`,
        followers: `${alice.webId}/followers`,
        following: `${alice.webId}/following`,
        liked: `${alice.webId}/liked`,
        endpoints: { sharedInbox: `${server.baseUrl}inbox` },
        manuallyApprovesFollowers: false,
        publicKey: { id: `${alice.webId}#main-key`, owner: alice.webId },
      });
      expect((actor.publicKey as { publicKeyPem: string }).publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/u);
    }
    const turtle = await fetch(alice.webId, { headers: { accept: 'text/turtle' } });
    expect(turtle.headers.get('content-type')).toBe('text/turtle');
    expect(await turtle.text()).toContain(`<${AS}preferredUsername>`.replace(`<${AS}`, 'as:').replace('>', '') );
  });

  it('is discoverable by WebFinger, NodeInfo and host-meta', async() => {
    const host = new URL(server.baseUrl).host;
    const finger = await fetch(`${server.baseUrl}.well-known/webfinger?resource=acct:alice@${host}`);
    expect(finger.status).toBe(200);
    expect(finger.headers.get('content-type')).toContain('application/jrd+json');
    expect(finger.headers.get('access-control-allow-origin')).toBe('*');
    const jrd = await finger.json() as { subject: string; links: { rel: string; type?: string; href?: string }[] };
    expect(jrd.subject).toBe(`acct:alice@${host}`);
    expect(jrd.links).toContainEqual(expect.objectContaining({ rel: 'self', type: 'application/activity+json', href: alice.webId }));
    const byUrl = await fetch(`${server.baseUrl}.well-known/webfinger?resource=${encodeURIComponent(alice.webId)}`);
    expect(((await byUrl.json()) as { subject: string }).subject).toBe(`acct:alice@${host}`);
    await expectJsonError(await fetch(`${server.baseUrl}.well-known/webfinger?resource=acct:nobody@${host}`), 404);
    await expectJsonError(await fetch(`${server.baseUrl}.well-known/webfinger`), 400);

    const index = await (await fetch(`${server.baseUrl}.well-known/nodeinfo`)).json() as { links: { rel: string; href: string }[] };
    const link = index.links.find((entry) => entry.rel === 'http://nodeinfo.diaspora.software/ns/schema/2.1')!;
    const nodeinfo = await (await fetch(link.href)).json() as Record<string, unknown>;
    expect(nodeinfo).toMatchObject({ version: '2.1', software: { name: 'fedpod' }, protocols: [ 'activitypub' ] });
    expect((nodeinfo.usage as { users: { total: number } }).users.total).toBeGreaterThanOrEqual(1);
    const hostMeta = await fetch(`${server.baseUrl}.well-known/host-meta`);
    expect(await hostMeta.text()).toContain(`${server.baseUrl}.well-known/webfinger?resource={uri}`);
  });

  it('keeps the key pair in files: the private key 0600, never in the store or served', async() => {
    const dir = path.join(server.dataDir, 'actors', 'alice');
    const privateStat = fs.statSync(path.join(dir, 'private.pem'));
    expect(privateStat.mode & 0o777).toBe(0o600);
    const publicPem = fs.readFileSync(path.join(dir, 'public.pem'), 'utf8');
    const actor = await (await fetch(alice.webId, { headers: { accept: 'application/activity+json' } })).json() as
      { publicKey: { publicKeyPem: string } };
    expect(createPublicKey(actor.publicKey.publicKeyPem).export({ format: 'der', type: 'spki' }))
      .toEqual(createPublicKey(publicPem).export({ format: 'der', type: 'spki' }));
    expect(await ask('ASK { GRAPH ?g { ?s ?p ?o FILTER(CONTAINS(STR(?o), "PRIVATE KEY")) } }')).toBe(false);
    expect(await ask('ASK { GRAPH ?g { ?s ?p ?o FILTER(CONTAINS(STR(?o), "scrypt$")) } }')).toBe(false);
    const listing = await (await fetch(`${server.baseUrl}actors/`, { headers: { accept: 'text/turtle' } })).text();
    expect(listing).not.toContain('PRIVATE KEY');
  });

  it('serves collections and pages 1,000 items newest first with one cursor per page', async() => {
    const outbox = `${alice.webId}/outbox`;
    // Items written in the collection layout documented in src/storage/CollectionStore.ts.
    const triples: string[] = [];
    for (let index = 0; index < 1000; index++) {
      const time = new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString();
      triples.push(`<${outbox}> <${AS}items> <${server.baseUrl}activities/a${index}> .`,
        `<${server.baseUrl}activities/a${index}> <urn:fedpod:ns:addedAt> "${time}"^^<http://www.w3.org/2001/XMLSchema#dateTime> .`);
    }
    const update = await httpRequest(`http://127.0.0.1:${server.storePort}/localData/update`, { method: 'POST',
      body: `update=${encodeURIComponent(`INSERT DATA { GRAPH <${outbox}> { ${triples.join('\n')} } }`)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` } });
    expect(update.status).toBeLessThan(300);

    // The owner sees every item (these have no addressing: anyone else sees none).
    const accept = { accept: 'application/activity+json', authorization: `Bearer ${alice.token}` };
    const collection = await (await fetch(outbox, { headers: accept })).json() as Record<string, string | number>;
    expect(collection).toMatchObject({ id: outbox, type: 'OrderedCollection', totalItems: 1000 });

    const seen: string[] = [];
    let url: string | undefined = String(collection.first);
    let pages = 0;
    let firstPage: Record<string, unknown> | undefined;
    while (url && pages < 100) {
      const page = await (await fetch(url, { headers: accept })).json() as Record<string, unknown>;
      firstPage ??= page;
      expect(page).toMatchObject({ type: 'OrderedCollectionPage', partOf: outbox });
      seen.push(...itemIds(page));
      if (pages > 0) expect(typeof page.prev).toBe('string');
      url = page.next as string | undefined;
      pages++;
    }
    expect(pages).toBe(50);
    expect(seen).toHaveLength(1000);
    expect(seen[0]).toBe(`${server.baseUrl}activities/a999`);
    expect(seen[999]).toBe(`${server.baseUrl}activities/a0`);
    expect(new Set(seen).size).toBe(1000);
    expect(firstPage!.prev).toBeUndefined();

    const last = await (await fetch(String(collection.last), { headers: accept })).json() as Record<string, unknown>;
    expect(itemIds(last)).toEqual(seen.slice(980));
    expect(last.next).toBeUndefined();
    const back = await (await fetch(String(last.prev), { headers: accept })).json() as Record<string, unknown>;
    expect(itemIds(back)).toEqual(seen.slice(960, 980));

    for (const name of [ 'inbox', 'followers', 'following', 'liked' ]) {
      const empty = await (await fetch(`${alice.webId}/${name}`, { headers: accept })).json() as Record<string, unknown>;
      expect(empty).toMatchObject({ id: `${alice.webId}/${name}`, type: 'OrderedCollection', totalItems: 0 });
    }
    await expectJsonError(await fetch(`${outbox}?page=true&before=bm90IGEgY3Vyc29y`, { headers: accept }), 400, 'invalid_cursor');
    await expectJsonError(await fetch(`${server.baseUrl}actors/nobody/outbox`, { headers: accept }), 404);
  });

  describe('refuses bad signups with a JSON 4xx and leaves nothing behind', () => {
    const valid = { username: 'bob', email: 'bob@example.com', password: 'long enough' };
    const cases: [string, unknown, number, string][] = [
      [ 'uppercase username', { ...valid, username: 'Bob' }, 400, 'invalid_username' ],
      [ 'username with a slash', { ...valid, username: 'bo/b' }, 400, 'invalid_username' ],
      [ 'path traversal', { ...valid, username: '../etc' }, 400, 'invalid_username' ],
      [ 'unicode username', { ...valid, username: 'böb' }, 400, 'invalid_username' ],
      [ 'too long username', { ...valid, username: 'b'.repeat(65) }, 400, 'invalid_username' ],
      [ 'empty username', { ...valid, username: '' }, 400, 'invalid_username' ],
      [ 'reserved username', { ...valid, username: 'admin' }, 400, 'invalid_username' ],
      [ 'implausible email', { ...valid, email: 'bob-at-example' }, 400, 'invalid_email' ],
      [ 'short password', { ...valid, password: 'short' }, 400, 'invalid_password' ],
      [ 'missing password', { username: 'bob', email: 'bob@example.com' }, 400, 'invalid_password' ],
      [ 'not an object', [ valid ], 400, 'invalid_body' ],
      [ 'taken username', { ...valid, username: 'alice' }, 409, 'username_taken' ],
      [ 'taken email', { ...valid, email: 'ALICE@example.com' }, 409, 'email_taken' ],
    ];
    it.each(cases)('%s', async(_name, body, status, error) => {
      const accounts = accountFiles();
      const actors = actorDirs();
      await expectJsonError(await signup(server, body), status, error);
      expect(accountFiles()).toEqual(accounts);
      expect(actorDirs()).toEqual(actors);
      expect(await ask(`ASK { GRAPH <${server.baseUrl}actors/bob> { ?s ?p ?o } }`)).toBe(false);
    });

    it('malformed JSON: 400', async() => {
      await expectJsonError(await signup(server, '{"username":'), 400, 'invalid_json');
    });

    it('not JSON: 415', async() => {
      await expectJsonError(await signup(server, 'username=bob', 'application/x-www-form-urlencoded'), 415);
    });

    it('a signup-shaped body POSTed to /actors: 405 pointing to /auth/signup, nothing stored', async() => {
      const response = await fetch(`${server.baseUrl}actors`, { method: 'POST',
        headers: { 'content-type': 'application/json' }, body: JSON.stringify(valid) });
      expect(response.status).toBe(405);
      const body = await response.json() as { error: string; message: string };
      expect(body.error).toBe('use_signup');
      expect(body.message).toContain('/auth/signup');
      expect(await ask('ASK { GRAPH ?g { ?s ?p "long enough" } }')).toBe(false);
    });

    it('a method no route of a served path takes: 405 with Allow, before credentials are read; /actors/ still an LDP container', async() => {
      for (const [ method, path, allow ] of [ [ 'GET', 'oauth/token', 'POST' ], [ 'DELETE', 'inbox', 'POST' ], [ 'PUT', 'favicon.ico', 'GET, HEAD' ] ]) {
        // A credential no route would accept: the refusal comes before authentication.
        const response = await fetch(`${server.baseUrl}${path}`, { method, headers: { authorization: 'Bearer not-a-token' }});
        await expectJsonError(response, 405, 'method_not_allowed');
        expect(response.headers.get('allow')).toBe(allow);
      }
      const container = await fetch(`${server.baseUrl}actors/`, { headers: { accept: 'text/turtle' }});
      expect(container.status).toBe(200);
      expect(await container.text()).toContain('ldp:contains');
    });

    it('direct writes to an actor document: 401 anonymous, 403 with a token', async() => {
      const response = await fetch(alice.webId, { method: 'PUT', headers: { 'content-type': 'text/turtle' },
        body: `<${alice.webId}> <${AS}name> "mallory" .` });
      await expectJsonError(response, 401);
      const withToken = await fetch(alice.webId, { method: 'PUT', headers: { 'content-type': 'text/turtle', authorization: `Bearer ${alice.token}` },
        body: `<${alice.webId}> <${AS}name> "mallory" .` });
      await expectJsonError(withToken, 403);
    });
  });

  describe('tokens', () => {
    async function tokenSigned(claims: Record<string, unknown>, expiresAt: number): Promise<string> {
      const jwk = JSON.parse(fs.readFileSync(path.join(server.dataDir, 'keys', 'jwt-es256.json'), 'utf8')) as { kid: string; kty: string };
      const key = await importJWK(jwk, 'ES256');
      return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: jwk.kid }).setSubject(alice.webId)
        .setIssuer(server.baseUrl).setIssuedAt(expiresAt - 60).setExpirationTime(expiresAt).sign(key);
    }

    async function collectionWith(token: string): Promise<Response> {
      return fetch(`${alice.webId}/outbox`, { headers: { accept: 'application/activity+json', authorization: `Bearer ${token}` } });
    }

    it('accepts its own valid token', async() => {
      expect((await collectionWith(alice.token)).status).toBe(200);
    });

    it('refuses forged, expired and alg=none tokens with 401 and a JSON error', async() => {
      const [ header, payload ] = alice.token.split('.');
      const forgedPayload = Buffer.from(JSON.stringify({ ...payloadOf(alice.token), webId: `${server.baseUrl}actors/mallory` })).toString('base64url');
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
      const expired = await tokenSigned({ webId: alice.webId, preferred_username: 'alice' }, Math.floor(Date.now() / 1000) - 10);
      for (const token of [ `${header}.${forgedPayload}.${alice.token.split('.')[2]}`, none, expired ]) {
        await expectJsonError(await collectionWith(token), 401);
      }
    });

  });

  it('keeps accounts, keys and actors across kill -9 and restart', async() => {
    await server.kill9();
    await server.restart();
    const response = await login(server, { username: 'alice', password: 'correct horse' });
    expect(response.status).toBe(200);
    const session = await response.json() as Session;
    expect((await collectionWith(session.token)).status).toBe(200);
    expect((await fetch(alice.webId, { headers: { accept: 'application/activity+json' } })).status).toBe(200);
    // The token issued before the restart is still valid: the signing key is on disk.
    expect((await collectionWith(alice.token)).status).toBe(200);

    async function collectionWith(token: string): Promise<Response> {
      return fetch(`${alice.webId}/outbox`, { headers: { accept: 'application/activity+json', authorization: `Bearer ${token}` } });
    }
  });
});

describe('Fedpod tokens in the CSS pipeline (WebACL setup with accounts)', () => {
  let server: FedpodServer;

  beforeAll(async() => {
    const port = await freePort();
    server = await startFedpod({ config: path.join(__dirname, '..', '..', 'fixtures', 'config', 'accounts-wac.json'), port,
      env: { ...process.env, FEDPOD_OWNER_WEBID: `http://localhost:${port}/actors/alice` } });
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('gives WebACL the WebID: the owner writes, another user gets 403, forged and missing tokens 401', async() => {
    const sessions: Record<string, Session> = {};
    for (const username of [ 'alice', 'bob' ]) {
      const response = await signup(server, { username, email: `${username}@example.com`, password: 'correct horse' });
      expect(response.status).toBe(201);
      sessions[username] = await response.json() as Session;
    }
    const url = `${server.baseUrl}notes/by-token`;
    const put = async(authorization?: string): Promise<number> => (await fetch(url, { method: 'PUT',
      headers: { 'content-type': 'text/turtle', ...authorization ? { authorization } : {} },
      body: `<${url}> <${AS}name> "written" .` })).status;
    expect(await put()).toBe(401);
    expect(await put(`Bearer ${sessions.alice.token.slice(0, -4)}AAAA`)).toBe(401);
    expect(await put(`Bearer ${sessions.bob.token}`)).toBe(403);
    expect(await put(`Bearer ${sessions.alice.token}`)).toBe(201);
    const read = await fetch(url, { headers: { accept: 'text/turtle' } });
    expect(read.status).toBe(200);
    expect(await read.text()).toContain('"written"');
  });
});
