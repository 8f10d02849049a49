/**
 * The authorization matrix of the ActivityPub setup, cell by cell, on the embedded store and on
 * Virtuoso: readers (anonymous, the author, another local user, a follower, an addressee, a remote
 * actor by HTTP-signed GET) against operations (GET, container listing, outbox page, PUT, PATCH,
 * DELETE, POST) on resources (a public note, a followers-only note, a direct note, the actor
 * document, webhook data). Every refused write is checked to have changed nothing.
 */
import { createSign } from 'node:crypto';
import { sharedServers } from '../../support/env';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { startSigner, type Signer } from '../../../test/robustness/support/signer';
import { throwawayRsaKey } from '../../../test/robustness/support/forgery';
import { itemIds } from '../../support/collections';

const AS = 'https://www.w3.org/ns/activitystreams';
const PUBLIC = `${AS}#Public`;
const AP = 'application/activity+json';

type Reader = 'anonymous' | 'owner' | 'other' | 'follower' | 'addressee' | 'remote';
type NoteKind = 'public' | 'followers' | 'direct';
const READERS: Reader[] = [ 'anonymous', 'owner', 'other', 'follower', 'addressee', 'remote' ];

/** Who may read each note (the audience rules). */
const MAY_READ: Record<NoteKind, Reader[]> = {
  public: READERS,
  followers: [ 'owner', 'follower' ],
  direct: [ 'owner', 'addressee', 'remote' ],
};

const STORES: [string, () => string | undefined][] = [
  [ 'embedded store', () => undefined ],
  [ 'Virtuoso', () => sharedServers().sparqlEndpoint ],
];

describe.each(STORES)('ActivityPub authorization matrix on the %s', (_label, endpoint) => {
  let server: FedpodServer;
  let signer: Signer;
  const tokens: Partial<Record<Reader, string>> = {};
  const notes = {} as Record<NoteKind, { object: string; activity: string }>;

  async function call(reader: Reader, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}):
  Promise<Response> {
    const headers: Record<string, string> = { accept: AP, ...init.headers };
    const method = init.method ?? 'GET';
    if (reader === 'remote' && (method === 'GET' || method === 'HEAD')) {
      const target = new URL(url);
      const date = new Date().toUTCString();
      const signed = `(request-target): ${method.toLowerCase()} ${target.pathname}${target.search}\nhost: ${target.host}\ndate: ${date}`;
      const signature = createSign('sha256').update(signed).sign(throwawayRsaKey, 'base64');
      headers.date = date;
      headers.signature = `keyId="${signer.keyId}",algorithm="rsa-sha256",headers="(request-target) host date",signature="${signature}"`;
    } else if (tokens[reader]) {
      headers.authorization = `Bearer ${tokens[reader]}`;
    }
    return fetch(url, { method, headers, body: init.body });
  }

  async function signup(username: string): Promise<string> {
    const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, email: `${username}@example.org`, password: 'correct horse battery' }) });
    expect(response.status).toBe(201);
    return (await response.json() as { token: string }).token;
  }

  async function post(reader: Reader, body: Record<string, unknown>): Promise<{ id: string; object?: { id: string } }> {
    const username = reader === 'owner' ? 'alice' : 'bob';
    const response = await call(reader, `${server.baseUrl}actors/${username}/outbox`, { method: 'POST',
      headers: { 'content-type': 'application/ld+json' }, body: JSON.stringify({ '@context': AS, ...body }) });
    expect(response.status).toBe(201);
    return await response.json() as { id: string; object?: { id: string } };
  }

  /** The author's view of every note, to show that no refused request changed anything. */
  async function snapshot(): Promise<string> {
    const views: string[] = [];
    for (const kind of Object.keys(notes) as NoteKind[]) {
      for (const url of [ notes[kind].object, notes[kind].activity ]) {
        const response = await call('owner', url);
        views.push(`${response.status} ${await response.text()}`);
      }
    }
    const outbox = await call('owner', `${server.baseUrl}actors/alice/outbox?page=true`);
    views.push(await outbox.text());
    return views.join('\n');
  }

  beforeAll(async() => {
    signer = await startSigner(throwawayRsaKey);
    server = await startFedpod({ config: 'activitypub', sparqlEndpoint: endpoint(), allowPrivateNetwork: true });
    tokens.owner = await signup('alice');
    tokens.follower = await signup('bob');
    tokens.other = await signup('carol');
    tokens.addressee = await signup('dave');
    const alice = `${server.baseUrl}actors/alice`;
    // bob follows alice; Fedpod's actors accept follows at once (through the queue).
    await post('follower', { type: 'Follow', object: alice });
    await eventually(async() => {
      const page = await (await fetch(`${alice}/followers?page=true`, { headers: { accept: AP } })).json() as { orderedItems: string[] };
      return page.orderedItems.includes(`${server.baseUrl}actors/bob`) ? true : undefined;
    });
    const audiences: Record<NoteKind, string[]> = {
      public: [ PUBLIC ],
      followers: [ `${alice}/followers` ],
      direct: [ `${server.baseUrl}actors/dave`, signer.actor ],
    };
    for (const kind of Object.keys(audiences) as NoteKind[]) {
      const created = await post('owner', { type: 'Note', content: `a ${kind} note`, to: audiences[kind] });
      notes[kind] = { object: created.object!.id, activity: created.id };
    }
  });

  afterAll(async() => {
    await server?.stop();
    await signer?.close();
  });

  describe.each([ 'public', 'followers', 'direct' ] as NoteKind[])('a %s note', (kind) => {
    it.each(READERS)('GET of the object and of its activity by %s follows the audience rules (else 404)', async(reader) => {
      const expected = MAY_READ[kind].includes(reader) ? 200 : 404;
      for (const url of [ notes[kind].object, notes[kind].activity ]) {
        const response = await call(reader, url);
        expect(`${reader} ${url.split('/').at(-2)} ${response.status}`).toBe(`${reader} ${url.split('/').at(-2)} ${expected}`);
        if (expected === 200) {
          const text = await response.text();
          expect(text).toContain(`a ${kind} note`);
          expect(text).not.toMatch(/"bcc"|"bto"/u);
        }
      }
      // Another spelling of the same resource is the same resource.
      const spelled = notes[kind].object.replace('/objects/', '/%6fbjects/').replace(/\/([0-9a-f])([^/]*)$/u,
        (_match, first: string, rest: string) => `/%${first.charCodeAt(0).toString(16)}${rest}`);
      for (const accept of [ AP, 'text/turtle' ]) {
        const response = await call(reader, spelled, { headers: { accept } });
        expect(`${reader} ${spelled} ${accept} ${response.status}`).toBe(`${reader} ${spelled} ${accept} ${expected}`);
      }
      for (const accept of [ 'text/turtle', 'application/ld+json', 'text/html,*/*;q=0.8' ]) {
        const response = await call(reader, notes[kind].object, { headers: { accept } });
        expect(`${reader} ${accept} ${response.status}`).toBe(`${reader} ${accept} ${expected}`);
      }
    });

    it.each(READERS)('the /objects/ and /activities/ listings and the outbox page show it to %s only when readable', async(reader) => {
      const visible = MAY_READ[kind].includes(reader);
      for (const [ container, member ] of [ [ 'objects/', notes[kind].object ], [ 'activities/', notes[kind].activity ] ]) {
        const listing = await (await call(reader, `${server.baseUrl}${container}`, { headers: { accept: 'application/ld+json' } })).text();
        expect(`${reader} ${container} ${listing.includes(member)}`).toBe(`${reader} ${container} ${visible}`);
      }
      const page = await (await call(reader, `${server.baseUrl}actors/alice/outbox?page=true`)).json() as { orderedItems: unknown };
      expect(`${reader} outbox ${itemIds(page).includes(notes[kind].activity)}`).toBe(`${reader} outbox ${visible}`);
    });

    it.each(READERS.filter((reader) => reader !== 'owner'))('PUT, PATCH, DELETE and POST by %s are refused and change nothing', async(reader) => {
      const before = await snapshot();
      const expected = reader === 'anonymous' || reader === 'remote' ? 401 : MAY_READ[kind].includes(reader) ? 403 : 404;
      for (const url of [ notes[kind].object, notes[kind].activity ]) {
        for (const [ method, type, body ] of [
          [ 'PUT', AP, JSON.stringify({ '@context': AS, type: 'Note', content: 'defaced', to: [ PUBLIC ] }) ],
          [ 'PUT', 'text/turtle', `<${url}> <${AS}#content> "defaced" .` ],
          [ 'PATCH', 'text/n3', `@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts { <${url}> <${AS}#content> "x" }.` ],
          [ 'DELETE', '', '' ],
          [ 'POST', AP, '{}' ],
        ]) {
          const response = await call(reader, url, { method, headers: type ? { 'content-type': type } : {}, body: body || undefined });
          expect(`${reader} ${method} ${type} ${response.status}`).toBe(`${reader} ${method} ${type} ${expected}`);
          expect(response.headers.get('content-type')).toMatch(/json/u);
          expect(Object.keys(await response.json() as object).sort()).toEqual([ 'error', 'message' ]);
        }
      }
      expect(await snapshot()).toBe(before);
    });
  });

  it.each(READERS)('the actor document is read by %s and written by nobody through LDP', async(reader) => {
    const actor = `${server.baseUrl}actors/alice`;
    const before = await (await fetch(actor, { headers: { accept: AP } })).text();
    expect((await call(reader, actor)).status).toBe(200);
    const known = reader !== 'anonymous' && reader !== 'remote';
    for (const method of [ 'PUT', 'PATCH', 'DELETE', 'POST' ]) {
      const response = await call(reader, actor, { method, headers: { 'content-type': 'text/turtle' }, body: method === 'DELETE' ? undefined : '<a:s> <a:p> <a:o> .' });
      expect(`${reader} ${method} ${response.status}`).toBe(`${reader} ${method} ${known ? 403 : 401}`);
    }
    expect(await (await fetch(actor, { headers: { accept: AP } })).text()).toBe(before);
  });

  it('webhook data is read by its user only (401 anonymous, 403 anyone else)', async() => {
    const generated = await call('owner', `${server.baseUrl}webhooks`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'store-in-container' }) });
    expect(generated.status).toBe(201);
    const uri = generated.headers.get('location')!;
    expect((await fetch(uri, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"reading":42}' })).status).toBe(202);
    const container = `${server.baseUrl}webhook-data/alice/`;
    const member = await eventually(async() => {
      const listing = await call('owner', container, { headers: { accept: 'text/turtle' } });
      const match = listing.status === 200 ? /<([^>]+webhook-data\/alice\/[^>]+)>/u.exec(await listing.text()) : null;
      return match?.[1];
    });
    for (const reader of READERS) {
      // A remote actor's signature is checked only where audiences need it: here it is no credential (401).
      const expected = reader === 'owner' ? 200 : reader === 'anonymous' || reader === 'remote' ? 401 : 403;
      for (const url of [ container, member ]) {
        const response = await call(reader, url, { headers: { accept: 'text/turtle' } });
        expect(`${reader} GET ${response.status}`).toBe(`${reader} GET ${expected}`);
      }
      if (reader !== 'owner') {
        const write = await call(reader, member, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '<a:s> <a:p> <a:o> .' });
        expect(write.status).toBe(reader === 'anonymous' || reader === 'remote' ? 401 : 403);
      }
    }
    expect((await call('anonymous', `${server.baseUrl}webhook-data/`, { headers: { accept: 'text/turtle' } })).status).toBe(401);
    expect((await call('other', `${server.baseUrl}webhook-data/`, { headers: { accept: 'text/turtle' } })).status).toBe(403);
  });

  it('nothing is created at the root or in the server\'s containers through LDP', async() => {
    for (const reader of [ 'anonymous', 'other' ] as Reader[]) {
      const expected = reader === 'anonymous' ? 401 : 403;
      for (const [ method, path ] of [ [ 'PUT', 'spam/file' ], [ 'PUT', 'sparql?graph=x' ], [ 'POST', 'objects/' ], [ 'POST', 'activities/' ],
        [ 'POST', '' ], [ 'PUT', 'objects/new' ], [ 'DELETE', 'objects/' ] ]) {
        const response = await call(reader, `${server.baseUrl}${path}`, { method, headers: { 'content-type': 'text/turtle' }, body: method === 'DELETE' ? undefined : '<a:s> <a:p> <a:o> .' });
        // The object route takes JSON from whoever may write (415 for Turtle); see below for JSON.
        const status = path === 'objects/new' && reader !== 'anonymous' ? 415 : expected;
        expect(`${reader} ${method} /${path} ${response.status}`).toBe(`${reader} ${method} /${path} ${status}`);
      }
      // An object that does not exist is not created by a PUT: 404 to whoever is logged in.
      const json = await call(reader, `${server.baseUrl}objects/new`, { method: 'PUT', headers: { 'content-type': 'application/activity+json' },
        body: JSON.stringify({ type: 'Note', content: 'planted' }) });
      expect(`${reader} PUT JSON ${json.status}`).toBe(`${reader} PUT JSON ${reader === 'anonymous' ? 401 : 404}`);
    }
    expect((await fetch(`${server.baseUrl}objects/new`, { headers: { accept: 'application/activity+json' } })).status).toBe(404);
    expect((await fetch(`${server.baseUrl}spam/file`, { headers: { accept: 'text/turtle' } })).status).toBe(404);
  });

  it('the author updates and deletes their note through LDP, as an Update and a Delete in the outbox', async() => {
    const { object } = notes.public;
    const put = await call('owner', object, { method: 'PUT', headers: { 'content-type': AP },
      body: JSON.stringify({ '@context': AS, type: 'Note', content: 'edited by its author', to: [ PUBLIC ] }) });
    expect(put.status).toBe(200);
    expect((await put.json() as { type: string }).type).toBe('Update');
    expect(await (await call('anonymous', object)).text()).toContain('edited by its author');
    expect((await call('owner', object, { method: 'PATCH', headers: { 'content-type': 'text/n3' }, body: '' })).status).toBe(405);
    const deleted = await call('owner', notes.direct.activity, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect((await deleted.json() as { type: string }).type).toBe('Delete');
    expect((await call('owner', notes.direct.object)).status).toBe(410);
    const deletedObject = await call('owner', object, { method: 'DELETE' });
    expect(deletedObject.status).toBe(200);
    expect((await call('anonymous', object)).status).toBe(410);
    // Neither deleted note's Create is listed any more.
    const page = itemIds(await (await call('owner', `${server.baseUrl}actors/alice/outbox?page=true`)).json() as { orderedItems: unknown });
    expect(page).not.toContain(notes.direct.activity);
    expect(page).not.toContain(notes.public.activity);
    expect(page).toContain(notes.followers.activity);
  });
});
