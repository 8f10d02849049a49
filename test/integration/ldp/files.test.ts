/**
 * Any file in the LDP setup (Solid's non-RDF sources) and the LDP behaviour Solid clients rely on:
 * the real server (config/ldp.json) over real sockets, on the embedded store and on Virtuoso.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { selectOnStore, TEST_STORES } from '../../support/stores';
import { TestIssuer } from '../../support/test-issuer';

/** Every byte value, twice: a body no text decoding survives. */
const BYTES = Buffer.from([ ...Array.from({ length: 256 }, (_, index): number => index), ...Array.from({ length: 256 }, (_, index): number => 255 - index) ]);

function filesIn(directory: string): string[] {
  try {
    return readdirSync(directory, { recursive: true, encoding: 'utf8' })
      .filter((name): boolean => statSync(join(directory, name)).isFile());
  } catch {
    return [];
  }
}

function links(response: Response): string {
  return response.headers.get('link') ?? '';
}

describe.each(TEST_STORES)('files and Solid LDP behaviour on the $name', (store) => {
  let server: FedpodServer;
  let notes: string;
  const issuer = new TestIssuer();
  let owner: Record<string, string>;
  let stranger: Record<string, string>;

  async function subjects(graph: string): Promise<string[]> {
    const rows = await selectOnStore(store, server, `SELECT DISTINCT ?s WHERE { GRAPH <${graph}> { ?s ?p ?o } }`);
    return rows.map((row): string => `${row.s.type}:${row.s.value}`);
  }

  beforeAll(async() => {
    await issuer.start();
    owner = { authorization: `Bearer ${await issuer.token(issuer.webId('owner'))}` };
    stranger = { authorization: `Bearer ${await issuer.token(issuer.webId('stranger'))}` };
    // The test issuer is on loopback: the server reads its WebIDs and keys only with --allow-private-network.
    server = await startFedpod({ config: 'ldp', allowPrivateNetwork: true, ...store.extraArgs(), extraArgs: [ '--max-body-size', '300000' ] });
    notes = `${server.baseUrl}notes/`;
  });

  afterAll(async() => {
    await server?.stop();
    await issuer.stop();
  });

  it('stores a file of any type and serves it back byte for byte, whichever handler answers', async() => {
    const url = `${notes}bytes.bin`;
    const put = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', ...owner }, body: BYTES });
    expect(put.status).toBe(201);
    // No Accept (Fedpod's reader), and the file's own type (CSS's).
    for (const accept of [ undefined, 'application/octet-stream' ]) {
      const response = await fetch(url, { headers: accept ? { accept } : {} });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/octet-stream');
      expect(Buffer.from(await response.arrayBuffer())).toEqual(BYTES);
      expect(links(response)).toContain('<http://www.w3.org/ns/ldp#NonRDFSource>; rel="type"');
      expect(links(response)).toContain(`<${url}.meta>; rel="describedby"`);
      expect(links(response)).toContain(`<${url}.acl>; rel="acl"`);
    }
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(BYTES.length));
    const eTag = head.headers.get('etag')!;
    expect(eTag).toMatch(/^"/u);
    expect((await fetch(url, { headers: { 'if-none-match': eTag } })).status).toBe(304);
    const range = await fetch(url, { headers: { range: 'bytes=10-19' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer())).toEqual(BYTES.subarray(10, 20));
    // Asked as RDF, a file is not acceptable.
    expect((await fetch(url, { headers: { accept: 'text/turtle' } })).status).toBe(406);
    // Only its owner may replace or delete it: anonymous 401, another agent 403, bytes unchanged.
    for (const [ headers, status ] of [ [ {}, 401 ], [ stranger, 403 ] ] as const) {
      const replaced = await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/plain', ...headers }, body: 'planted' });
      expect(replaced.status).toBe(status);
      expect(await replaced.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
      expect((await fetch(url, { method: 'DELETE', headers })).status).toBe(status);
    }
    expect(Buffer.from(await (await fetch(url)).arrayBuffer())).toEqual(BYTES);
  });

  it('replaces a file\'s bytes on PUT and removes them on DELETE, leaving no file behind', async() => {
    const url = `${notes}page.html`;
    const before = filesIn(join(server.dataDir, 'files')).length;
    expect((await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/html', ...owner }, body: '<p>one</p>' })).status).toBe(201);
    expect((await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/html', ...owner }, body: '<p>two</p>' })).status).toBe(205);
    expect(await (await fetch(url)).text()).toBe('<p>two</p>');
    expect(filesIn(join(server.dataDir, 'files'))).toHaveLength(before + 1);
    expect((await fetch(url, { method: 'DELETE', headers: owner })).status).toBe(205);
    expect((await fetch(url)).status).toBe(404);
    expect(filesIn(join(server.dataDir, 'files'))).toHaveLength(before);
  });

  it('leaves to CSS the file PUTs it does not take itself (missing parents, preconditions), and never stores a file under a container\'s name', async() => {
    const deep = `${notes}deeper/still/file.txt`;
    expect((await fetch(deep, { method: 'PUT', headers: { 'content-type': 'text/plain', ...owner }, body: 'deep' })).status).toBe(201);
    expect(await (await fetch(deep)).text()).toBe('deep');
    expect(await (await fetch(`${notes}deeper/`, { headers: { accept: 'text/turtle' } })).text()).toContain(`<${notes}deeper/still/>`);
    const again = await fetch(deep, { method: 'PUT', headers: { 'content-type': 'text/plain', 'if-none-match': '*', ...owner }, body: 'again' });
    expect(again.status).toBe(412);
    expect(await (await fetch(deep)).text()).toBe('deep');
    // A document cannot take a container's name: refused (the intermediate container has no owner
    // here, so the access policy answers before CSS's 409), and nothing is stored.
    const clash = await fetch(`${notes}deeper/still`, { method: 'PUT', headers: { 'content-type': 'text/plain', ...owner }, body: 'clash' });
    expect([ 403, 409 ]).toContain(clash.status);
    expect(await (await fetch(`${notes}deeper/still`, { headers: { accept: '*/*' } })).text()).not.toContain('clash');
    expect(await (await fetch(`${notes}deeper/still/`, { headers: { accept: 'text/turtle' } })).text()).toContain(`<${deep}>`);
  });

  it('keeps a file\'s bytes and media type when its description (.meta) is patched', async() => {
    const url = `${notes}described.txt`;
    expect((await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/plain', ...owner }, body: 'keep me' })).status).toBe(201);
    const patch = await fetch(`${url}.meta`, { method: 'PATCH', headers: { 'content-type': 'application/sparql-update', ...owner },
      body: `INSERT DATA { <${url}> <http://purl.org/dc/terms/title> "described" }` });
    expect(patch.status).toBe(205);
    const file = await fetch(url);
    expect(file.headers.get('content-type')).toBe('text/plain');
    expect(await file.text()).toBe('keep me');
    expect(await (await fetch(`${url}.meta`, { headers: { accept: 'text/turtle', ...owner } })).text()).toContain('"described"');
  });

  it('creates files by POST with the same Slug rule as RDF, and lists them', async() => {
    const text = await fetch(notes, { method: 'POST', headers: { 'content-type': 'text/plain', slug: 'My File!.txt' }, body: 'plain text' });
    const turtle = await fetch(notes, { method: 'POST', headers: { 'content-type': 'text/turtle', slug: 'My File!.ttl' },
      body: '<> <http://purl.org/dc/terms/title> "a title" .' });
    expect([ text.status, turtle.status ]).toEqual([ 201, 201 ]);
    expect(text.headers.get('location')).toBe(`${notes}My-File-.txt`);
    expect(turtle.headers.get('location')).toBe(`${notes}My-File-.ttl`);
    expect(await (await fetch(text.headers.get('location')!)).text()).toBe('plain text');
    const listing = await (await fetch(notes, { headers: { accept: 'text/turtle' } })).text();
    expect(listing).toContain(`<${notes}My-File-.txt>`);
  });

  it('names the new resource by <> in a Turtle POST, and the resource itself by a JSON-LD node without @id', async() => {
    const created = await fetch(notes, { method: 'POST', headers: { 'content-type': 'text/turtle' },
      body: '<> <http://purl.org/dc/terms/title> "posted" .' });
    const iri = created.headers.get('location')!;
    expect(await subjects(iri)).toEqual([ `uri:${iri}` ]);
    const put = `${notes}no-id.jsonld`;
    expect((await fetch(put, { method: 'PUT', headers: { 'content-type': 'application/ld+json' },
      body: JSON.stringify({ '@context': { title: 'http://purl.org/dc/terms/title' }, title: 'no id' }) })).status).toBe(201);
    expect(await subjects(put)).toEqual([ `uri:${put}` ]);
  });

  it('keeps JSON that is not linked data as a JSON file, and reads linked JSON as RDF on PUT as on POST', async() => {
    const settings = `${notes}settings.json`;
    const body = '{ "theme": "dark",\n  "size": 3 }';
    expect((await fetch(settings, { method: 'PUT', headers: { 'content-type': 'application/json' }, body })).status).toBe(201);
    const file = await fetch(settings);
    expect(file.headers.get('content-type')).toBe('application/json');
    expect(await file.text()).toBe(body);
    const linked = `${notes}linked`;
    expect((await fetch(linked, { method: 'PUT', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'Note', content: 'linked' }) })).status).toBe(201);
    const turtle = await (await fetch(linked, { headers: { accept: 'text/turtle' } })).text();
    expect(turtle).toContain('"linked"');
  });

  it('keeps the charset of a page, and serves the RDFa of an HTML page to a client asking for RDF', async() => {
    const page = `${notes}card.html`;
    const html = '<!doctype html><html lang="en"><head><title>Card</title></head><body>' +
      '<p about="#me" typeof="http://xmlns.com/foaf/0.1/Person"><span property="http://xmlns.com/foaf/0.1/name">Zoë</span></p></body></html>';
    const put = await fetch(page, { method: 'PUT', headers: { 'content-type': 'text/html; Charset="UTF-8"', ...owner }, body: html });
    expect(put.status).toBe(201);
    const asHtml = await fetch(page, { headers: { accept: 'text/html' }});
    expect(asHtml.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await asHtml.text()).toBe(html);
    // A range is served by CSS's pipeline: the same type.
    const range = await fetch(page, { headers: { range: 'bytes=0-14' }});
    expect(range.status).toBe(206);
    expect(range.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const turtle = await fetch(page, { headers: { accept: 'text/turtle' }});
    expect(turtle.status).toBe(200);
    expect(turtle.headers.get('content-type')).toBe('text/turtle');
    const text = await turtle.text();
    expect(text).toMatch(/Zoë/u);
    expect(text).toMatch(/foaf:Person|<http:\/\/xmlns\.com\/foaf\/0\.1\/Person>/u);
    const jsonLd = await fetch(page, { headers: { accept: 'application/ld+json' }});
    expect(jsonLd.status).toBe(200);
    expect(JSON.stringify(await jsonLd.json())).toContain(`${page}#me`);
    expect((await fetch(page, { headers: { accept: 'image/png' }})).status).toBe(406);
    // Any other file asked for as RDF is still a 406.
    const plain = `${notes}plain.txt`;
    expect((await fetch(plain, { method: 'PUT', headers: { 'content-type': 'text/plain', ...owner }, body: 'x' })).status).toBe(201);
    expect((await fetch(plain, { headers: { accept: 'text/turtle' }})).status).toBe(406);
  });

  it('answers Turtle to a client that takes anything', async() => {
    const url = `${notes}any.ttl`;
    await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '<> <http://purl.org/dc/terms/title> "any" .' });
    for (const headers of [ {}, { accept: '*/*' } ] as Record<string, string>[]) {
      const response = await fetch(url, { headers });
      expect(response.headers.get('content-type')).toMatch(/^text\/turtle/u);
    }
  });

  it('lists members, not what their data mentions, and child containers with their type', async() => {
    const container = `${notes}listing/`;
    await fetch(`${container}exists.ttl`, { method: 'PUT', headers: { 'content-type': 'text/turtle' },
      body: '<#hello> <http://purl.org/dc/terms/title> "hello" . <./> <http://www.w3.org/ns/ldp#contains> <http://elsewhere.example/x> .' });
    await fetch(`${container}child/inner.ttl`, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '<> <http://purl.org/dc/terms/title> "in" .' });
    const json = await (await fetch(container, { headers: { accept: 'application/ld+json' } })).json() as
      { 'ldp:contains': { id: string; type?: string[] }[] };
    expect(json['ldp:contains'].map((member): string => member.id).sort()).toEqual([ `${container}child/`, `${container}exists.ttl` ]);
    expect(json['ldp:contains'].find((member): boolean => member.id === `${container}child/`)?.type).toContain('ldp:BasicContainer');
    const turtle = await (await fetch(container, { headers: { accept: 'text/turtle' } })).text();
    expect(turtle).not.toContain('elsewhere.example');
    expect(turtle).not.toContain('#hello');
  });

  it('makes the root a pim:Storage, described at /.well-known/solid', async() => {
    const root = await fetch(server.baseUrl, { headers: { accept: 'text/turtle' } });
    expect(links(root)).toContain('<http://www.w3.org/ns/pim/space#Storage>; rel="type"');
    const description = await fetch(`${server.baseUrl}.well-known/solid`, { headers: { accept: 'text/turtle' } });
    expect(description.status).toBe(200);
    expect(await description.text()).toContain('http://www.w3.org/ns/pim/space#Storage');
  });

  it('refuses what must be RDF and what is too large, storing nothing', async() => {
    const owned = `${notes}owned.txt`;
    expect((await fetch(owned, { method: 'PUT', headers: { 'content-type': 'text/plain', ...owner }, body: 'mine' })).status).toBe(201);
    const acl = await fetch(`${owned}.acl`, { method: 'PUT', headers: { 'content-type': 'text/plain', ...owner }, body: 'not rdf' });
    expect(acl.status).toBe(415);
    expect(await acl.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    expect((await fetch(`${owned}.acl`, { headers: owner })).status).toBe(404);
    const before = filesIn(join(server.dataDir, 'files')).length;
    const large = await fetch(`${notes}large.bin`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(400_000, 1) });
    expect(large.status).toBe(413);
    expect((await fetch(`${notes}large.bin`)).status).toBe(404);
    expect(filesIn(join(server.dataDir, 'files'))).toHaveLength(before);
  });

  if (store.name === 'embedded store') {
    it('keeps an acknowledged file through kill -9 and a restart', async() => {
      const url = `${notes}durable.bin`;
      expect((await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: BYTES })).status).toBe(201);
      await server.kill9();
      await server.restart();
      expect(Buffer.from(await (await fetch(url)).arrayBuffer())).toEqual(BYTES);
    });
  }
});
