import { LdpRdfPutHandler } from '../../../../src/handlers/ldp/LdpRdfPutHandler';
import { eTagFor, modifiedOf } from '../../../../src/handlers/ldp/LdpHeaders';
import { fileNameOf } from '../../../../src/storage/ResourceFiles';
import type { HandlerServer } from '../support/handlerServer';
import { declined } from '../support/handlerServer';
import type { WriteHandlerRig } from '../support/writeHandlerRig';
import { DOCS, startWriteHandlerRig } from '../support/writeHandlerRig';

const TURTLE = { 'content-type': 'text/turtle' };

describe('LdpRdfPutHandler (on the embedded store)', (): void => {
  let rig: WriteHandlerRig;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    rig = await startWriteHandlerRig();
    server = await rig.serve(new LdpRdfPutHandler(rig.options));
  });

  afterAll(async(): Promise<void> => {
    await rig.stop();
  });

  beforeEach((): void => {
    rig.css.left.length = 0;
    rig.changes.events.length = 0;
  });

  async function put(target: string, body: string, headers: Record<string, string> = TURTLE): Promise<Response> {
    return fetch(`${server.base}${target}`, { method: 'PUT', body, headers });
  }

  async function objectsOf(iri: string): Promise<string[]> {
    return (await rig.options.store.readData(iri)).map((entry): string => entry.object.value).sort();
  }

  async function eTagOf(iri: string): Promise<string> {
    return eTagFor(modifiedOf(await rig.options.store.readMetadata(iri), iri), 'text/turtle')!;
  }

  it('needs CSS\'s handler to fall back on', (): void => {
    expect((): unknown => new LdpRdfPutHandler({ ...rig.options, fallback: undefined }))
      .toThrow('LdpRdfPutHandler needs CSS\'s LDP handler as its fallback.');
  });

  it('creates a document: 201 with Location, its triples (relative IRIs against it), containment, a Create', async(): Promise<void> => {
    const response = await put('/docs/a.ttl', '<> <urn:p> "one" ; <urn:q> <#it> .');
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`${DOCS}a.ttl`);
    expect(await objectsOf(`${DOCS}a.ttl`)).toEqual([ `${DOCS}a.ttl#it`, 'one' ]);
    expect(await rig.graphs.resources.children(DOCS)).toContain(`${DOCS}a.ttl`);
    expect(rig.changes.events).toEqual([ `created ${DOCS}a.ttl` ]);
  });

  it('replaces a document: 205, only the new triples, an Update', async(): Promise<void> => {
    await put('/docs/b.ttl', '<> <urn:p> "old" .');
    rig.changes.events.length = 0;
    const response = await put('/docs/b.ttl', '{"@id": "", "urn:p": "new"}', { 'content-type': 'application/ld+json' });
    expect(response.status).toBe(205);
    expect(await objectsOf(`${DOCS}b.ttl`)).toEqual([ 'new' ]);
    expect(rig.changes.events).toEqual([ `updated ${DOCS}b.ttl` ]);
  });

  it('takes the Link a Solid client sends and judges If-None-Match and If-Match: 412 writes nothing', async(): Promise<void> => {
    const link = '<http://www.w3.org/ns/ldp#Resource>; rel="type"';
    const created = await put('/docs/c.ttl', '<> <urn:p> "1" .', { ...TURTLE, 'if-none-match': '*', link });
    expect(created.status).toBe(201);
    expect((await put('/docs/c.ttl', '<> <urn:p> "2" .', { ...TURTLE, 'if-none-match': '*', link })).status).toBe(412);
    expect((await put('/docs/c.ttl', '<> <urn:p> "2" .', { ...TURTLE, 'if-match': '"1-text/turtle"' })).status).toBe(412);
    expect((await put('/docs/new.ttl', '<> <urn:p> "2" .', { ...TURTLE, 'if-match': '*' })).status).toBe(412);
    expect(await objectsOf(`${DOCS}c.ttl`)).toEqual([ '1' ]);
    expect(await rig.graphs.resources.exists(`${DOCS}new.ttl`)).toBe(false);
    const replaced = await put('/docs/c.ttl', '<> <urn:p> "3" .', { ...TURTLE, 'if-match': await eTagOf(`${DOCS}c.ttl`) });
    expect(replaced.status).toBe(205);
    expect(await objectsOf(`${DOCS}c.ttl`)).toEqual([ '3' ]);
    expect(rig.css.left).toEqual([]);
  });

  it('answers 400 to a body that does not parse and to one nested too deeply, writing nothing', async(): Promise<void> => {
    await put('/docs/d.ttl', '<> <urn:p> "kept" .');
    expect((await put('/docs/d.ttl', '<> <urn:p> "cut off')).status).toBe(400);
    expect((await put('/docs/d.ttl', `<> <urn:p> ${'['.repeat(200)}${']'.repeat(200)} .`)).status).toBe(400);
    expect((await put('/docs/e.ttl', '<> <urn:p> "cut off')).status).toBe(400);
    expect(await objectsOf(`${DOCS}d.ttl`)).toEqual([ 'kept' ]);
    expect(await rig.graphs.resources.exists(`${DOCS}e.ttl`)).toBe(false);
  });

  it('keeps JSON that is not linked data as a file, and replaces a file with triples, its bytes removed', async(): Promise<void> => {
    expect((await put('/docs/f', '{"plain": true}', { 'content-type': 'application/json' })).status).toBe(201);
    expect(fileNameOf(await rig.options.store.readMetadata(`${DOCS}f`))).toBeDefined();
    expect((await put('/docs/f', '<> <urn:p> "rdf" .')).status).toBe(205);
    expect(fileNameOf(await rig.options.store.readMetadata(`${DOCS}f`))).toBeUndefined();
    expect(await objectsOf(`${DOCS}f`)).toEqual([ 'rdf' ]);
  });

  it('reads N-Triples and, through the converter, other syntaxes; triples in a named graph are a 415', async(): Promise<void> => {
    expect((await put('/docs/nt', `<${DOCS}nt> <urn:p> "nt" .`, { 'content-type': 'application/n-triples' })).status).toBe(201);
    expect(await objectsOf(`${DOCS}nt`)).toEqual([ 'nt' ]);
    expect((await put('/docs/nt', `<${DOCS}nt> <urn:p> "bad" `, { 'content-type': 'application/n-triples' })).status).toBe(400);
    expect((await put('/docs/n3', '<> <urn:p> "n3" .', { 'content-type': 'text/n3' })).status).toBe(201);
    expect(await objectsOf(`${DOCS}n3`)).toEqual([ 'n3' ]);
    expect((await put('/docs/trig', '<urn:g> { <> <urn:p> "g" . }', { 'content-type': 'application/trig' })).status).toBe(415);
    expect(await rig.graphs.resources.exists(`${DOCS}trig`)).toBe(false);
  });

  it('refuses a body over the limit with 413', async(): Promise<void> => {
    expect((await put('/docs/big.ttl', `<> <urn:p> "${'x'.repeat(2001)}" .`)).status).toBe(413);
    expect(await rig.graphs.resources.exists(`${DOCS}big.ttl`)).toBe(false);
  });

  it('leaves to CSS a PUT whose container is missing or whose name a container has', async(): Promise<void> => {
    expect((await put('/new/dir/g.ttl', '<> <urn:p> "x" .')).status).toBe(299);
    expect((await put('/docs/sub', '<> <urn:p> "x" .')).status).toBe(299);
    expect(rig.css.left).toEqual([ 'PUT /new/dir/g.ttl', 'PUT /docs/sub' ]);
  });

  it('declines files, no media type, other Links, containers, auxiliary and reserved paths, and other methods', async(): Promise<void> => {
    const refused = [
      await put('/docs/h.txt', 'x', { 'content-type': 'text/plain' }),
      await fetch(`${server.base}/docs/h.ttl`, { method: 'PUT', body: new Uint8Array([ 1 ]) }),
      await put('/docs/h.ttl', '', { ...TURTLE, link: '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"' }),
      await put('/docs/h/', ''),
      await put('/docs/h.ttl.acl', ''),
      await put('/docs/h.ttl.meta', ''),
      await put('/.well-known/h', ''),
      await fetch(`${server.base}/docs/h.ttl`, { method: 'POST', body: '', headers: TURTLE }),
    ];
    expect(refused.map(declined)).toEqual(refused.map((): boolean => true));
  });
});
