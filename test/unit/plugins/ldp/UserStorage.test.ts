import { BasicRepresentation, readableToString } from '@solid/community-server';
import type { ResourceStore } from '@solid/community-server';
import type { Quad } from '@rdfjs/types';
import { Parser } from 'n3';
import type { WebAclAuthorizer } from '../../../../src/plugins/ldp/WebAclAuthorizer';
import { storageAclTurtle, UserStorage } from '../../../../src/plugins/ldp/UserStorage';
import type { ResourceGraphStore } from '../../../../src/storage/ResourceGraphStore';
import { PIM_STORAGE, RDF_TYPE } from '../../../../src/storage/StoreVocabulary';
import { cssMemoryStore } from '../../support/cssMemoryStore';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;
const ACL = 'http://www.w3.org/ns/auth/acl#';

/** Stands in for the WebACL cache: counts the times it is told an ACL changed. */
class AclChanges {
  public count = 0;
  public async changed(): Promise<void> {
    this.count += 1;
  }
}

describe('UserStorage (on CSS\'s in-memory store)', (): void => {
  let store: ResourceStore;
  let acl: AclChanges;
  let storage: UserStorage;

  beforeEach((): void => {
    store = cssMemoryStore(BASE);
    acl = new AclChanges();
    storage = new UserStorage(BASE, store, 'pods/', acl as unknown as WebAclAuthorizer);
  });

  async function text(path: string): Promise<string> {
    return readableToString((await store.getRepresentation({ path }, { type: { 'text/turtle': 1 }})).data);
  }

  it('names each user\'s storage under the storage path, the username one segment', (): void => {
    expect(storage.storageOf('alice')).toBe(`${BASE}pods/alice/`);
    expect(storage.storageOf('a b')).toBe(`${BASE}pods/a%20b/`);
    expect(new UserStorage('https://pod.example', store, 'users').storageOf('bob')).toBe(`${BASE}users/bob/`);
  });

  it('creates the storage with an ACL giving its owner full control of it and of all in it', async(): Promise<void> => {
    await storage.create('alice', ALICE);
    expect(await store.hasResource({ path: `${BASE}pods/alice/` })).toBe(true);
    const quads = new Parser({ baseIRI: `${BASE}pods/alice/.acl` }).parse(await text(`${BASE}pods/alice/.acl`));
    const objects = (predicate: string): string[] => quads.filter((entry): boolean => entry.predicate.value === `${ACL}${predicate}`)
      .map((entry): string => entry.object.value).sort();
    expect(objects('agent')).toEqual([ ALICE ]);
    expect(objects('mode')).toEqual([ `${ACL}Control`, `${ACL}Read`, `${ACL}Write` ]);
    expect(objects('accessTo')).toEqual([ `${BASE}pods/alice/` ]);
    expect(objects('default')).toEqual([ `${BASE}pods/alice/` ]);
    expect(acl.count).toBe(1);
  });

  it('replaces what a failed signup left in the storage', async(): Promise<void> => {
    await storage.create('alice', ALICE);
    const leftover = `${BASE}pods/alice/notes/old`;
    await store.setRepresentation({ path: leftover }, new BasicRepresentation('old', { path: leftover }, 'text/plain'));
    await storage.create('alice', ALICE);
    expect(await store.hasResource({ path: leftover })).toBe(false);
    expect(await store.hasResource({ path: `${BASE}pods/alice/notes/` })).toBe(false);
    expect(await store.hasResource({ path: `${BASE}pods/alice/.acl` })).toBe(true);
  });

  it('makes only what a storage lacks, its container or its ACL, and keeps what is in it', async(): Promise<void> => {
    expect(await storage.ensure('alice', ALICE)).toBe(true);
    expect(acl.count).toBe(1);
    const note = `${BASE}pods/alice/note`;
    await store.setRepresentation({ path: note }, new BasicRepresentation('mine', { path: note }, 'text/plain'));
    expect(await storage.ensure('alice', ALICE)).toBe(false);
    expect(acl.count).toBe(1);
    expect(await store.hasResource({ path: note })).toBe(true);
    // A container left without its ACL (a start stopped half-way) gets it, and only it.
    await store.deleteResource({ path: `${BASE}pods/alice/.acl` });
    expect(await storage.ensure('alice', ALICE)).toBe(true);
    expect(await text(`${BASE}pods/alice/.acl`)).toContain(`acl:agent <${ALICE}>`);
    expect(await store.hasResource({ path: note })).toBe(true);
    expect(acl.count).toBe(2);
  });

  it('removes the storage and everything in it, nested containers too', async(): Promise<void> => {
    await storage.create('alice', ALICE);
    for (const path of [ 'a', 'sub/b', 'sub/deeper/c' ]) {
      const iri = `${BASE}pods/alice/${path}`;
      await store.setRepresentation({ path: iri }, new BasicRepresentation(path, { path: iri }, 'text/plain'));
    }
    const before = acl.count;
    await storage.remove('alice');
    for (const path of [ '', 'a', 'sub/', 'sub/b', 'sub/deeper/', 'sub/deeper/c' ]) {
      expect(await store.hasResource({ path: `${BASE}pods/alice/${path}` })).toBe(false);
    }
    expect(acl.count).toBe(before + 1);
  });

  it('removes nothing, and tells the ACL cache nothing, for a user without storage', async(): Promise<void> => {
    await storage.remove('nobody');
    expect(acl.count).toBe(0);
  });

  it('writes an ACL document that names the owner it is given', (): void => {
    const turtle = storageAclTurtle('https://id.example/me#i');
    expect(turtle).toContain('acl:agent <https://id.example/me#i>;');
    expect(new Parser().parse(turtle.replace(/<\.\/>/gu, `<${BASE}x/>`).replace('<#owner>', `<${BASE}x/.acl#owner>`))).toHaveLength(7);
  });

  it('types the storage as a pim:Storage in the resource graphs, when given them', async(): Promise<void> => {
    const added: Quad[] = [];
    const graphs = { addMetadata: async(iri: string, metadata: readonly Quad[]): Promise<void> => {
      added.push(...metadata.filter((entry): boolean => entry.subject.value === iri));
    } } as unknown as ResourceGraphStore;
    await new UserStorage(BASE, store, 'pods/', undefined, graphs).create('alice', ALICE);
    expect(added.map((entry): string => `${entry.subject.value} ${entry.predicate.value} ${entry.object.value}`))
      .toEqual([ `${BASE}pods/alice/ ${RDF_TYPE} ${PIM_STORAGE}` ]);
  });
});
