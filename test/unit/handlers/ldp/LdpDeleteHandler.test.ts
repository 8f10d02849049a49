import { Readable } from 'node:stream';
import arrayifyStream from 'arrayify-stream';
import { LdpDeleteHandler } from '../../../../src/handlers/ldp/LdpDeleteHandler';
import { eTagFor, modifiedOf } from '../../../../src/handlers/ldp/LdpHeaders';
import { documentMetadata } from '../../../../src/storage/ResourceGraphs';
import { fileMetadata } from '../../../../src/storage/ResourceFiles';
import type { HandlerServer } from '../support/handlerServer';
import { declined } from '../support/handlerServer';
import type { WriteHandlerRig } from '../support/writeHandlerRig';
import { ALICE, DOCS, startWriteHandlerRig } from '../support/writeHandlerRig';

describe('LdpDeleteHandler (on the embedded store)', (): void => {
  let rig: WriteHandlerRig;
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    rig = await startWriteHandlerRig();
    server = await rig.serve(new LdpDeleteHandler(rig.options));
  });

  afterAll(async(): Promise<void> => {
    await rig.stop();
  });

  beforeEach((): void => {
    rig.css.left.length = 0;
    rig.agent = { webId: ALICE };
    rig.authorizer.modes.clear();
    rig.authorizer.modes.set(`${ALICE} ${DOCS}`, [ 'read', 'write', 'append' ]);
  });

  async function remove(target: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${server.base}${target}`, { method: 'DELETE', headers });
  }

  async function readFile(name: string): Promise<string> {
    const chunks = await arrayifyStream<Buffer>(rig.options.files.open(name));
    return Buffer.concat(chunks).toString('utf8');
  }

  async function document(name: string): Promise<string> {
    const iri = `${DOCS}${name}`;
    await rig.graphs.put(iri, [[ 'urn:p', 'a', 'literal' ]], DOCS);
    rig.changes.events.length = 0;
    return iri;
  }

  it('needs CSS\'s handler to fall back on', (): void => {
    expect((): unknown => new LdpDeleteHandler({ ...rig.options, fallback: undefined }))
      .toThrow('LdpDeleteHandler needs CSS\'s LDP handler as its fallback.');
  });

  it('deletes a document: 205, gone from the store and its container, a Delete', async(): Promise<void> => {
    const iri = await document('a');
    const response = await remove('/docs/a');
    expect(response.status).toBe(205);
    expect(await rig.graphs.resources.exists(iri)).toBe(false);
    expect(await rig.graphs.resources.readData(iri)).toEqual([]);
    expect(await rig.graphs.resources.children(DOCS)).not.toContain(iri);
    expect(rig.changes.events).toEqual([ `deleted ${iri}` ]);
  });

  it('deletes a file with its bytes', async(): Promise<void> => {
    const iri = `${DOCS}f.txt`;
    const now = new Date();
    let name = '';
    await rig.options.files.saveDescribed(Readable.from([ Buffer.from('bytes') ]), async(saved): Promise<void> => {
      name = saved.name;
      await rig.options.store.createInContainer(DOCS, iri, [], [ ...documentMetadata(iri, now), ...fileMetadata(iri, saved, 'text/plain') ], now);
    });
    expect(await readFile(name)).toBe('bytes');
    expect((await remove('/docs/f.txt')).status).toBe(205);
    await expect(readFile(name)).rejects.toThrow('ENOENT');
    expect(await rig.graphs.resources.exists(iri)).toBe(false);
  });

  it('asks WebACL for acl:Write on the container, as CSS does (403, 401 anonymous), deleting nothing', async(): Promise<void> => {
    const iri = await document('w');
    rig.authorizer.modes.set(`${ALICE} ${DOCS}`, [ 'read', 'append' ]);
    expect((await remove('/docs/w')).status).toBe(403);
    rig.agent = {};
    expect((await remove('/docs/w')).status).toBe(401);
    expect(await rig.graphs.resources.exists(iri)).toBe(true);
    const open = await rig.serve(new LdpDeleteHandler({ ...rig.options, authorizer: undefined }));
    expect((await fetch(`${open.base}/docs/w`, { method: 'DELETE' })).status).toBe(205);
  });

  it('judges If-Match: 412 deletes nothing', async(): Promise<void> => {
    const iri = await document('c');
    expect((await remove('/docs/c', { 'if-match': '"1-text/turtle"' })).status).toBe(412);
    expect(await rig.graphs.resources.exists(iri)).toBe(true);
    const eTag = eTagFor(modifiedOf(await rig.options.store.readMetadata(iri), iri), 'text/turtle')!;
    expect((await remove('/docs/c', { 'if-match': eTag })).status).toBe(205);
  });

  it('leaves to CSS a missing document, one with its own ACL, and a missing container', async(): Promise<void> => {
    const iri = await document('with-acl');
    await rig.graphs.put(`${iri}.acl`, [], DOCS);
    expect((await remove('/docs/nothing')).status).toBe(299);
    expect((await remove('/docs/with-acl')).status).toBe(299);
    expect((await remove('/gone/x')).status).toBe(299);
    expect(rig.css.left).toEqual([ 'DELETE /docs/nothing', 'DELETE /docs/with-acl', 'DELETE /gone/x' ]);
    expect(await rig.graphs.resources.exists(iri)).toBe(true);
  });

  it('declines containers, auxiliary and reserved paths, and other methods', async(): Promise<void> => {
    const refused = [
      await remove('/docs/sub/'),
      await remove('/docs/a.acl'),
      await remove('/docs/a.meta'),
      await remove('/.well-known/solid'),
      await fetch(`${server.base}/docs/a`),
    ];
    expect(refused.map(declined)).toEqual(refused.map((): boolean => true));
  });
});
