/**
 * The LDP setup end to end: the real server (config/ldp.json) over real sockets, against the
 * embedded store and against Virtuoso (the external SPARQL server CI can run).
 */
import { getContainedResourceUrlAll, getSolidDataset, getStringNoLocale, getThing } from '@inrupt/solid-client';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { checkPostPreconditions } from '../../support/post-preconditions';
import { selectOnStore, TEST_STORES } from '../../support/stores';
import { TestIssuer } from '../../support/test-issuer';

const AS = 'https://www.w3.org/ns/activitystreams#';
const PAGE_SIZE = 4;

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/ld+json', ...headers }, body });
}

function note(name: string, content: string): string {
  return JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Note', name, content });
}

interface Listing {
  '@context': string;
  id: string;
  type: string[];
  'ldp:contains': { id: string; type?: string; name?: string; content?: string }[];
}

/** Every member of a container, following Link rel="next" across pages. */
async function listAll(url: string): Promise<Listing['ldp:contains']> {
  const members: Listing['ldp:contains'] = [];
  let next: string | undefined = url;
  for (let pages = 0; next && pages < 1000; pages++) {
    const response: Response = await fetch(next, { headers: { accept: 'application/ld+json' } });
    expect(response.status).toBe(200);
    const listing = await response.json() as Listing;
    members.push(...listing['ldp:contains']);
    next = /<([^>]+)>;\s*rel="next"/u.exec(response.headers.get('link') ?? '')?.[1];
  }
  return members;
}

describe.each(TEST_STORES)('LDP setup on the $name', (store) => {
  let server: FedpodServer;
  let notes: string;
  const issuer = new TestIssuer();
  /** Authorization headers of a Solid-OIDC login: the owner of what it creates, and a stranger. */
  const as: Record<'owner' | 'stranger', Record<string, string>> = { owner: {}, stranger: {}};

  beforeAll(async() => {
    await issuer.start();
    as.owner = { authorization: `Bearer ${await issuer.token(issuer.webId('owner'))}` };
    as.stranger = { authorization: `Bearer ${await issuer.token(issuer.webId('stranger'))}` };
    // The test issuer is on loopback: the server reads its WebIDs and keys only with --allow-private-network.
    server = await startFedpod({ config: 'ldp', allowPrivateNetwork: true, ...store.extraArgs(), extraArgs: [ '--container-page-size', String(PAGE_SIZE) ] });
    notes = `${server.baseUrl}notes/`;
  });

  afterAll(async() => {
    await server?.stop();
    await issuer.stop();
  });

  it('starts with an empty /notes/ container listed as compacted JSON-LD', async() => {
    const response = await fetch(`${server.baseUrl}notes`, { headers: { accept: 'application/ld+json' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/ld+json');
    const listing = await response.json() as Listing;
    expect(listing['@context']).toBe(`${server.baseUrl}context.json`);
    expect(listing.id).toBe(notes);
    expect(listing.type).toEqual(expect.arrayContaining([ 'ldp:Container', 'ldp:BasicContainer' ]));
    expect(listing['ldp:contains']).toEqual([]);
  });

  it('gives answers of CSS\'s handlers and of its own the same CORS headers, once', async() => {
    const origin = { origin: 'https://app.example' };
    // CSS's storage description, Fedpod's container read, and CSS's static files (a route of their own).
    for (const url of [ `${server.baseUrl}.well-known/solid`, notes, `${server.baseUrl}favicon.ico` ]) {
      const response = await fetch(url, { headers: origin });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
      const exposed = response.headers.get('access-control-expose-headers')!.split(', ');
      expect(exposed).toEqual(expect.arrayContaining([ 'X-Request-Id', 'Retry-After', 'WAC-Allow', 'Location' ]));
      expect(response.headers.get('vary')).toContain('Origin');
      expect(response.headers.get('x-powered-by')).toBeNull();
    }
    expect((await fetch(`${server.baseUrl}favicon.ico`)).headers.get('content-type')).toContain('image/');
  });

  it('creates a note with POST, lists it embedded, and stores its triples', async() => {
    const content = `hello ${store.name} ${Date.now()}`;
    const response = await post(`${server.baseUrl}notes`, note('First', content), { 'content-type': 'application/json' });
    expect(response.status).toBe(201);
    const location = response.headers.get('location')!;
    expect(location.startsWith(notes)).toBe(true);
    expect(location.length).toBeGreaterThan(notes.length + 20);
    expect(response.headers.get('link')).toContain('<http://www.w3.org/ns/ldp#Resource>; rel="type"');

    const members = await listAll(notes);
    expect(members).toContainEqual({ id: location, type: 'Note', name: 'First', content });

    const rows = await selectOnStore(store, server,
      `SELECT ?s WHERE { ?s <${AS}content> ${JSON.stringify(content)} }`);
    expect(rows.map((row) => row.s.value)).toEqual([ location ]);

    const single = await fetch(location, { headers: { accept: 'application/ld+json' } });
    expect(await single.json()).toEqual({
      '@context': `${server.baseUrl}context.json`, id: location, type: 'Note', name: 'First', content,
    });
  });

  it('honours Slug and never overwrites an existing resource with it', async() => {
    const first = await post(notes, note('A', 'slug one'), { slug: 'my note' });
    expect(first.headers.get('location')).toBe(`${notes}my-note`);
    const second = await post(notes, note('B', 'slug two'), { slug: 'my note' });
    expect(second.status).toBe(201);
    const other = second.headers.get('location')!;
    expect(other).not.toBe(`${notes}my-note`);
    const kept = await (await fetch(`${notes}my-note`, { headers: { accept: 'application/ld+json' } })).json() as { content: string };
    expect(kept.content).toBe('slug one');
  });

  it('serves Turtle and N-Triples by content negotiation, with ETags and 304', async() => {
    const created = await post(notes, note('Turtle', 'in turtle'));
    const location = created.headers.get('location')!;
    const turtle = await fetch(location, { headers: { accept: 'text/turtle' } });
    expect(turtle.headers.get('content-type')).toBe('text/turtle');
    expect(await turtle.text()).toContain('"in turtle"');
    const triples = await fetch(location, { headers: { accept: 'application/n-triples' } });
    expect(await triples.text()).toContain(`<${location}> <${AS}content> "in turtle" .`);
    const eTag = turtle.headers.get('etag')!;
    expect(eTag).toMatch(/^".+"$/u);
    const again = await fetch(location, { headers: { accept: 'text/turtle', 'if-none-match': eTag } });
    expect(again.status).toBe(304);
    // The 304 carries nothing the 200 did not (RFC 9110): no X-Request-Id of its own.
    expect(turtle.headers.get('x-request-id')).toBeTruthy();
    expect(again.headers.get('x-request-id')).toBeNull();
    expect(again.headers.get('etag')).toBe(eTag);
  });

  it('writes Turtle with the prefixes a document was written with, after a PATCH too', async() => {
    const prefixesIn = (turtle: string): string[] => [ ...turtle.matchAll(/@prefix\s+([\w-]*):\s*<([^>]*)>/gu) ]
      .map((match): string => `${match[1]}=${match[2]}`).sort();
    // POST (the fast create path) of Turtle with its own prefix.
    const created = await post(notes, '@prefix test: <http://test.com/>.\ntest:s1 test:p1 test:o1.\ntest:s2 test:p2 test:o2.',
      { 'content-type': 'text/turtle', ...as.owner });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const patched = await fetch(location, { method: 'PATCH', headers: { 'content-type': 'application/sparql-update', ...as.owner },
      body: 'PREFIX test: <http://test.com/>\nDELETE { test:s1 test:p1 test:o1 } INSERT { test:s3 test:p3 test:o3 } WHERE {}' });
    expect(patched.status).toBe(205);
    const turtle = await (await fetch(location, { headers: { accept: 'text/turtle' } })).text();
    expect(prefixesIn(turtle)).toEqual([ 'test=http://test.com/' ]);
    expect(turtle).toContain('test:s3 test:p3 test:o3');
    expect(turtle).not.toContain('test:s1');
    // PUT replaces the prefixes with the new body's.
    const put = await fetch(location, { method: 'PUT', headers: { 'content-type': 'text/turtle', ...as.owner },
      body: '@prefix ex: <http://example.org/ns#>.\n@prefix other: <http://other.example/>.\nex:a ex:b other:c.' });
    expect(put.status).toBe(205);
    const replaced = await (await fetch(location, { headers: { accept: 'text/turtle' } })).text();
    expect(prefixesIn(replaced)).toEqual([ 'ex=http://example.org/ns#', 'other=http://other.example/' ]);
    // The kept prefixes are not part of the document's description.
    const description = await (await fetch(`${location}.meta`, { headers: { accept: 'application/n-triples', ...as.owner } })).text();
    expect(description).toContain(location);
    expect(description).not.toContain('urn:fedpod:ns:prefix');
    // A document written without prefixes keeps the server's.
    const plain = await post(notes, note('Plain', 'no prefixes'));
    const plainTurtle = await (await fetch(plain.headers.get('location')!, { headers: { accept: 'text/turtle' } })).text();
    expect(prefixesIn(plainTurtle)).toContain('as=https://www.w3.org/ns/activitystreams#');
  });

  it('lets the owner update with PUT, SPARQL Update and N3 Patch, and delete, through the CSS pipeline', async() => {
    const url = `${notes}put-${Date.now()}`;
    const put = await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/turtle', ...as.owner },
      body: `<${url}> <${AS}name> "put" .` });
    expect(put.status).toBe(201);
    for (const [ who, status ] of [ [ {}, 401 ], [ as.stranger, 403 ] ] as const) {
      for (const method of [ 'PUT', 'PATCH', 'DELETE' ]) {
        const refused = await fetch(url, { method, headers: { 'content-type': method === 'PATCH' ? 'application/sparql-update' : 'text/turtle', ...who },
          body: method === 'DELETE' ? undefined : method === 'PATCH' ? `INSERT DATA { <${url}> <${AS}summary> "defaced" }` : `<${url}> <${AS}name> "defaced" .` });
        expect(`${method} ${refused.status}`).toBe(`${method} ${status}`);
        expect(Object.keys(await refused.json() as object).sort()).toEqual([ 'error', 'message' ]);
      }
    }
    expect(await (await fetch(url, { headers: { accept: 'text/turtle' } })).text()).not.toContain('defaced');
    const sparql = await fetch(url, { method: 'PATCH', headers: { 'content-type': 'application/sparql-update', ...as.owner },
      body: `INSERT DATA { <${url}> <${AS}summary> "patched" }` });
    expect(sparql.status).toBeLessThan(300);
    const n3 = await fetch(url, { method: 'PATCH', headers: { 'content-type': 'text/n3', ...as.owner },
      body: `@prefix solid: <http://www.w3.org/ns/solid/terms#>. <#patch> a solid:InsertDeletePatch; solid:inserts { <${url}> <${AS}content> "n3" }.` });
    expect(n3.status).toBeLessThan(300);
    const read = await (await fetch(url, { headers: { accept: 'application/ld+json' } })).json() as Record<string, string>;
    expect(read).toMatchObject({ id: url, name: 'put', summary: 'patched', content: 'n3' });
    const stale = await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/turtle', 'if-match': '"0-text/turtle"', ...as.owner },
      body: `<${url}> <${AS}name> "stale" .` });
    expect(stale.status).toBe(412);
    const deleted = await fetch(url, { method: 'DELETE', headers: as.owner });
    expect(deleted.status).toBeLessThan(300);
    expect((await fetch(url, { headers: { accept: 'text/turtle' } })).status).toBe(404);
    expect((await listAll(notes)).map((member) => member.id)).not.toContain(url);
  });

  it('honours If-Match, If-None-Match and If-Unmodified-Since on POST as CSS does, on every body, writing nothing on 412', async() => {
    await checkPostPreconditions(notes, as.owner);
  });

  it('shows member edits made through CSS in the next listing, with a new container ETag', async() => {
    const created = await post(notes, note('Editable', 'before edit'), as.owner);
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const listing = async(): Promise<{ eTag: string; member?: Listing['ldp:contains'][number] }> => {
      const response = await fetch(notes, { headers: { accept: 'application/ld+json' } });
      const body = await response.json() as Listing;
      return { eTag: response.headers.get('etag')!, member: body['ldp:contains'].find((entry) => entry.id === location) };
    };
    const first = await listing();
    expect(first.member?.content).toBe('before edit');
    // Asked twice: the second answer may come from the page cache, and must be the same.
    expect((await listing()).member?.content).toBe('before edit');

    const put = await fetch(location, { method: 'PUT', headers: { 'content-type': 'text/turtle', ...as.owner },
      body: `<${location}> a <${AS}Note>; <${AS}content> "after PUT" .` });
    expect(put.status).toBeLessThan(300);
    const afterPut = await listing();
    expect(afterPut.member?.content).toBe('after PUT');
    expect(afterPut.eTag).not.toBe(first.eTag);

    const patch = await fetch(location, { method: 'PATCH', headers: { 'content-type': 'application/sparql-update', ...as.owner },
      body: `DELETE DATA { <${location}> <${AS}content> "after PUT" } ; INSERT DATA { <${location}> <${AS}content> "after PATCH" }` });
    expect(patch.status).toBeLessThan(300);
    expect((await listing()).member?.content).toBe('after PATCH');
  });

  it('pages large containers with Link rel="next"', async() => {
    const before = (await listAll(notes)).length;
    for (let index = 0; index < 6; index++) {
      expect((await post(notes, note(`page ${index}`, `paged ${index}`))).status).toBe(201);
    }
    const first = await fetch(notes, { headers: { accept: 'application/ld+json' } });
    expect(((await first.json()) as Listing)['ldp:contains']).toHaveLength(PAGE_SIZE);
    expect(first.headers.get('link')).toMatch(/rel="next"/u);
    const all = await listAll(notes);
    expect(all).toHaveLength(before + 6);
    expect(new Set(all.map((member) => member.id)).size).toBe(all.length);
  });

  it('lets a Solid client read the contained resources', async() => {
    const content = `solid client ${Date.now()}`;
    const location = (await post(notes, note('Solid', content))).headers.get('location')!;
    const container = await getSolidDataset(notes);
    expect(getContainedResourceUrlAll(container)).toContain(location);
    const dataset = await getSolidDataset(location);
    expect(getStringNoLocale(getThing(dataset, location)!, `${AS}content`)).toBe(content);
  });

  describe('refuses bad input with a JSON error and writes nothing', () => {
    async function expectRefused(response: Response, status: number): Promise<void> {
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toContain('application/json');
      const body = await response.json() as { error: string; message: string };
      expect(typeof body.error).toBe('string');
      expect(body.message.length).toBeGreaterThan(0);
    }

    async function memberCount(): Promise<number> {
      return (await listAll(notes)).length;
    }

    it('malformed JSON: 400', async() => {
      const before = await memberCount();
      await expectRefused(await post(notes, '{"type": "Note", "content": '), 400);
      expect(await memberCount()).toBe(before);
    });

    it('JSON-LD naming a context this server does not know: 400', async() => {
      const before = await memberCount();
      await expectRefused(await post(notes, JSON.stringify({ '@context': 'http://127.0.0.1:1/ctx', name: 'x' })), 400);
      expect(await memberCount()).toBe(before);
    });

    it('invalid JSON-LD sent with PUT, through CSS\'s pipeline: 400 with the parser\'s reason, not 500', async() => {
      const target = `${server.baseUrl}notes/broken-context.jsonld`;
      const response = await fetch(target, { method: 'PUT', headers: { 'content-type': 'application/ld+json' },
        body: JSON.stringify({ '@context': 5, name: 'x' }) });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalid_jsonld', message: expect.stringContaining('@context') });
      expect((await fetch(target)).status).toBe(404);
    });

    it('a body that is not an object: 400', async() => {
      await expectRefused(await post(notes, '"just a string"'), 400);
    });

    it('a cut-off RDF/XML document, POSTed or PUT: 400, not the triples read before the cut', async() => {
      const before = await memberCount();
      const cut = '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="">';
      await expectRefused(await fetch(notes, { method: 'POST', headers: { 'content-type': 'application/rdf+xml' }, body: cut }), 400);
      expect(await memberCount()).toBe(before);
      const target = `${server.baseUrl}notes/cut.rdf`;
      await expectRefused(await fetch(target, { method: 'PUT', headers: { 'content-type': 'application/rdf+xml' }, body: cut }), 400);
      expect((await fetch(target)).status).toBe(404);
    });

    it('an oversized body: 413', async() => {
      const before = await memberCount();
      const huge = note('big', 'x'.repeat(1_100_000));
      await expectRefused(await post(notes, huge), 413);
      expect(await memberCount()).toBe(before);
    });

    it('a missing container: 404', async() => {
      await expectRefused(await post(`${server.baseUrl}notes/nothing-here/`, note('x', 'y')), 404);
    });
  });

  it('says it is ready: /readyz 200 with the store checked (the ldp setup runs no job queue)', async() => {
    const ready = await fetch(`${server.baseUrl}readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ checks: { store: { status: 'ok' }, queues: { status: 'ok' } } });
  });

  it('serves its JSON-LD context', async() => {
    const response = await fetch(`${server.baseUrl}context.json`);
    expect(response.status).toBe(200);
    const context = (await response.json() as { '@context': Record<string, unknown> })['@context'];
    expect(context).toMatchObject({ ldp: 'http://www.w3.org/ns/ldp#', id: '@id', type: '@type', content: 'as:content' });
  });

  it('keeps every acknowledged write across kill -9 and restart', async() => {
    const locations: string[] = [];
    for (let index = 0; index < 20; index++) {
      const response = await post(notes, note(`durable ${index}`, `durable content ${index}`));
      expect(response.status).toBe(201);
      locations.push(response.headers.get('location')!);
    }
    await server.kill9();
    await server.restart();
    const members = (await listAll(notes)).map((member) => member.id);
    for (const location of locations) {
      expect(members).toContain(location);
    }
    const rows = await selectOnStore(store, server, `SELECT ?s WHERE { ?s <${AS}content> "durable content 19" }`);
    expect(rows.map((row) => row.s.value)).toEqual([ locations[19] ]);
  });
});
