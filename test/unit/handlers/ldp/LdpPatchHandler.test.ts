import { LdpPatchHandler } from '../../../../src/handlers/ldp/LdpPatchHandler';
import { eTagFor, modifiedOf } from '../../../../src/handlers/ldp/LdpHeaders';
import { fileMetadata } from '../../../../src/storage/ResourceFiles';
import type { HandlerServer } from '../support/handlerServer';
import { declined } from '../support/handlerServer';
import type { WriteHandlerRig } from '../support/writeHandlerRig';
import { ALICE, DOCS, startWriteHandlerRig } from '../support/writeHandlerRig';

const SPARQL = { 'content-type': 'application/sparql-update' };
const N3 = { 'content-type': 'text/n3' };
const PREFIXES = '@prefix solid: <http://www.w3.org/ns/solid/terms#>.';

describe('LdpPatchHandler (on the embedded store)', (): void => {
  let rig: WriteHandlerRig;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    rig = await startWriteHandlerRig();
    server = await rig.serve(new LdpPatchHandler(rig.options));
  });

  afterAll(async(): Promise<void> => {
    await rig.stop();
  });

  beforeEach((): void => {
    rig.css.left.length = 0;
    rig.changes.events.length = 0;
    rig.agent = { webId: ALICE };
    rig.authorizer.modes.clear();
  });

  async function patch(target: string, body: string, headers: Record<string, string> = SPARQL): Promise<Response> {
    return fetch(`${server.base}${target}`, { method: 'PATCH', body, headers });
  }

  /** A document with `<doc> <urn:p> "a", "b"`, which ALICE may read and write. */
  async function document(name: string): Promise<string> {
    const iri = `${DOCS}${name}`;
    await rig.graphs.put(iri, [[ 'urn:p', 'a', 'literal' ], [ 'urn:p', 'b', 'literal' ]], DOCS);
    rig.authorizer.modes.set(`${ALICE} ${iri}`, [ 'read', 'write', 'append' ]);
    rig.changes.events.length = 0;
    return iri;
  }

  async function objectsOf(iri: string): Promise<string[]> {
    return (await rig.options.store.readData(iri)).map((entry): string => entry.object.value).sort();
  }

  it('needs CSS\'s handler to fall back on', (): void => {
    expect((): unknown => new LdpPatchHandler({ ...rig.options, fallback: undefined }))
      .toThrow('LdpPatchHandler needs CSS\'s LDP handler as its fallback.');
  });

  it('applies DELETE DATA and INSERT DATA (a Solid client\'s save): 205, the new triples, an Update', async(): Promise<void> => {
    const iri = await document('s1');
    const response = await patch('/docs/s1', `DELETE DATA { <${iri}> <urn:p> "a" . }; INSERT DATA { <${iri}> <urn:p> "c" . };`);
    expect(response.status).toBe(205);
    expect(await objectsOf(iri)).toEqual([ 'b', 'c' ]);
    expect(rig.changes.events).toEqual([ `updated ${iri}` ]);
    expect(rig.css.left).toEqual([]);
  });

  it('applies DELETE/INSERT WHERE with CSS\'s patcher, relative IRIs against the document', async(): Promise<void> => {
    const iri = await document('s2');
    const response = await patch('/docs/s2', 'DELETE { <> <urn:p> ?o } INSERT { <> <urn:q> ?o } WHERE { <> <urn:p> ?o }');
    expect(response.status).toBe(205);
    expect((await rig.options.store.readData(iri)).map((entry): string => entry.predicate.value)).toEqual([ 'urn:q', 'urn:q' ]);
  });

  it('creates a missing document from a patch: 201 with Location, a Create', async(): Promise<void> => {
    rig.authorizer.modes.set(`${ALICE} ${DOCS}s3`, [ 'append' ]);
    const response = await patch('/docs/s3', 'INSERT DATA { <> <urn:p> "new" . }');
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`${DOCS}s3`);
    expect(await objectsOf(`${DOCS}s3`)).toEqual([ 'new' ]);
    expect(await rig.graphs.resources.children(DOCS)).toContain(`${DOCS}s3`);
    expect(rig.changes.events).toEqual([ `created ${DOCS}s3` ]);
  });

  it('applies an N3 Patch with solid:where, and answers 409 to no match or several, changing nothing', async(): Promise<void> => {
    const iri = await document('n1');
    const several = `${PREFIXES} _:p a solid:InsertDeletePatch; solid:where { <> <urn:p> ?o }; solid:deletes { <> <urn:p> ?o }.`;
    expect((await patch('/docs/n1', several, N3)).status).toBe(409);
    const none = `${PREFIXES} _:p a solid:InsertDeletePatch; solid:where { <> <urn:p> "z" }; solid:inserts { <> <urn:p> "y" }.`;
    expect((await patch('/docs/n1', none, N3)).status).toBe(409);
    const missing = `${PREFIXES} _:p a solid:InsertDeletePatch; solid:deletes { <> <urn:p> "z" }.`;
    expect((await patch('/docs/n1', missing, N3)).status).toBe(409);
    expect(await objectsOf(iri)).toEqual([ 'a', 'b' ]);
    const one = `${PREFIXES} _:p a solid:InsertDeletePatch; solid:where { <> <urn:p> "a" }; solid:deletes { <> <urn:p> "a" };
      solid:inserts { <> <urn:p> "d" }.`;
    expect((await patch('/docs/n1', one, N3)).status).toBe(205);
    expect(await objectsOf(iri)).toEqual([ 'b', 'd' ]);
    expect(rig.changes.events).toEqual([ `updated ${iri}` ]);
  });

  it('answers bad bodies as CSS does (400 syntax, 422 N3 Patch rules, 415 unsupported), changing nothing', async(): Promise<void> => {
    const iri = await document('bad');
    expect((await patch('/docs/bad', 'INSERT DATA { <> <urn:p> ')).status).toBe(400);
    expect((await patch('/docs/bad', '<> <urn:p> "x" .', N3)).status).toBe(422);
    expect((await patch('/docs/bad', `${PREFIXES} _:p a solid:InsertDeletePatch; solid:inserts { _:b <urn:p> "x" }.`, N3)).status).toBe(422);
    expect((await patch('/docs/bad', 'INSERT DATA { GRAPH <urn:g> { <> <urn:p> "x" } }')).status).toBe(415);
    expect((await patch('/docs/bad', 'CLEAR DEFAULT')).status).toBe(415);
    expect(await objectsOf(iri)).toEqual([ 'a', 'b' ]);
    expect(rig.changes.events).toEqual([]);
  });

  it('asks WebACL for acl:Write when the patch deletes (403 to an agent with append only, 401 anonymous)', async(): Promise<void> => {
    const iri = await document('w1');
    rig.authorizer.modes.set(`${ALICE} ${iri}`, [ 'append' ]);
    expect((await patch('/docs/w1', `DELETE DATA { <${iri}> <urn:p> "a" . }`)).status).toBe(403);
    expect((await patch('/docs/w1', `${PREFIXES} _:p a solid:InsertDeletePatch; solid:where { <> <urn:p> "a" };
      solid:inserts { <> <urn:q> "x" }.`, N3)).status).toBe(403);
    rig.agent = {};
    expect((await patch('/docs/w1', `DELETE DATA { <${iri}> <urn:p> "a" . }`)).status).toBe(401);
    expect(await objectsOf(iri)).toEqual([ 'a', 'b' ]);
    rig.agent = { webId: ALICE };
    expect((await patch('/docs/w1', `INSERT DATA { <${iri}> <urn:p> "c" . }`)).status).toBe(205);
    expect(await objectsOf(iri)).toEqual([ 'a', 'b', 'c' ]);
  });

  it('asks nothing more without WebACL (public append: the pipeline\'s check is the whole check)', async(): Promise<void> => {
    const open = new LdpPatchHandler({ ...rig.options, authorizer: undefined });
    const openServer = await rig.serve(open);
    const iri = await document('p1');
    rig.authorizer.modes.clear();
    const response = await fetch(`${openServer.base}/docs/p1`, { method: 'PATCH', headers: SPARQL,
      body: `DELETE DATA { <${iri}> <urn:p> "a" . }` });
    expect(response.status).toBe(205);
    expect(await objectsOf(iri)).toEqual([ 'b' ]);
  });

  it('judges If-Match and If-None-Match against the document: 412 changes nothing', async(): Promise<void> => {
    const iri = await document('c1');
    const insert = `INSERT DATA { <${iri}> <urn:p> "c" . }`;
    expect((await patch('/docs/c1', insert, { ...SPARQL, 'if-match': '"1-text/turtle"' })).status).toBe(412);
    expect((await patch('/docs/c1', insert, { ...SPARQL, 'if-none-match': '*' })).status).toBe(412);
    expect(await objectsOf(iri)).toEqual([ 'a', 'b' ]);
    const eTag = eTagFor(modifiedOf(await rig.options.store.readMetadata(iri), iri), 'text/turtle')!;
    expect((await patch('/docs/c1', insert, { ...SPARQL, 'if-match': eTag })).status).toBe(205);
    expect(await objectsOf(iri)).toEqual([ 'a', 'b', 'c' ]);
  });

  it('leaves to CSS a missing container, a container\'s name and a file', async(): Promise<void> => {
    await rig.options.store.write(`${DOCS}file`, DOCS, fileMetadata(`${DOCS}file`, { name: 'f', size: 1 }, 'text/plain'), []);
    expect((await patch('/new/dir/x', 'INSERT DATA { <> <urn:p> "x" . }')).status).toBe(299);
    expect((await patch('/docs/sub', 'INSERT DATA { <> <urn:p> "x" . }')).status).toBe(299);
    expect((await patch('/docs/file', 'INSERT DATA { <> <urn:p> "x" . }')).status).toBe(299);
    expect(rig.css.left).toEqual([ 'PATCH /new/dir/x', 'PATCH /docs/sub', 'PATCH /docs/file' ]);
  });

  it('declines other media types, containers, auxiliary and reserved paths, and other methods', async(): Promise<void> => {
    const refused = [
      await patch('/docs/x', '<> <urn:p> "x" .', { 'content-type': 'text/turtle' }),
      await patch('/docs/x/', 'INSERT DATA { <> <urn:p> "x" . }'),
      await patch('/docs/x.acl', 'INSERT DATA { <> <urn:p> "x" . }'),
      await patch('/docs/x.meta', 'INSERT DATA { <> <urn:p> "x" . }'),
      await patch('/.well-known/solid', 'INSERT DATA { <> <urn:p> "x" . }'),
      await fetch(`${server.base}/docs/x`, { method: 'PUT', body: 'INSERT DATA { <> <urn:p> "x" . }', headers: SPARQL }),
    ];
    expect(refused.map(declined)).toEqual(refused.map((): boolean => true));
  });
});
