import type { Representation, ResourceIdentifier, ResourceStore } from '@solid/community-server';
import { readableToString } from '@solid/community-server';
import { Parser, Store } from 'n3';
import { parseOwners, RootAclInitializer, rootAclTurtle } from '../../../../src/plugins/ldp/RootAclInitializer';

const ACL = 'http://www.w3.org/ns/auth/acl#';
const BASE = 'http://pod.example/';

function parseAcl(turtle: string): Store {
  return new Store(new Parser({ baseIRI: `${BASE}.acl` }).parse(turtle));
}

function modesOf(store: Store, authorization: string): string[] {
  return store.getObjects(`${BASE}.acl#${authorization}`, `${ACL}mode`, null).map((mode): string => mode.value).sort();
}

describe('rootAclTurtle', (): void => {
  it('gives everyone Read on the root and everything below it', (): void => {
    const store = parseAcl(rootAclTurtle([]));
    expect(store.getObjects(`${BASE}.acl#public`, `${ACL}agentClass`, null).map((term): string => term.value))
      .toEqual([ 'http://xmlns.com/foaf/0.1/Agent' ]);
    expect(modesOf(store, 'public')).toEqual([ `${ACL}Read` ]);
    expect(store.getObjects(`${BASE}.acl#public`, `${ACL}accessTo`, null)[0].value).toBe(BASE);
    expect(store.getObjects(`${BASE}.acl#public`, `${ACL}default`, null)[0].value).toBe(BASE);
  });

  it('gives no one else anything when no owner is configured', (): void => {
    const store = parseAcl(rootAclTurtle([]));
    expect(store.getSubjects(`${ACL}mode`, null, null).map((term): string => term.value)).toEqual([ `${BASE}.acl#public` ]);
  });

  it('gives the owners Read, Write and Control', (): void => {
    const owners = [ 'https://alice.example/profile/card#me', 'https://bob.example/#i' ];
    const store = parseAcl(rootAclTurtle(owners));
    expect(modesOf(store, 'owner')).toEqual([ `${ACL}Control`, `${ACL}Read`, `${ACL}Write` ]);
    expect(store.getObjects(`${BASE}.acl#owner`, `${ACL}agent`, null).map((term): string => term.value).sort())
      .toEqual(owners);
    expect(store.getObjects(`${BASE}.acl#owner`, `${ACL}default`, null)[0].value).toBe(BASE);
  });
});

describe('parseOwners', (): void => {
  it('splits on spaces and commas', (): void => {
    expect(parseOwners(' https://a.example/#me, https://b.example/#me  https://c.example/#me ')).toEqual([
      'https://a.example/#me', 'https://b.example/#me', 'https://c.example/#me',
    ]);
    expect(parseOwners('')).toEqual([]);
  });

  it('refuses what is not an http(s) IRI', (): void => {
    expect((): unknown => parseOwners('alice')).toThrow('not an absolute IRI');
    expect((): unknown => parseOwners('mailto:alice@example.org')).toThrow('not an http(s) IRI');
    expect((): unknown => parseOwners('https://a.example/>;acl:mode<x')).toThrow('not an http(s) IRI');
  });
});

describe('RootAclInitializer', (): void => {
  let existing: Set<string>;
  let written: Map<string, Representation>;
  let store: ResourceStore;

  beforeEach((): void => {
    existing = new Set();
    written = new Map();
    store = {
      hasResource: jest.fn(async(id: ResourceIdentifier): Promise<boolean> => existing.has(id.path)),
      setRepresentation: jest.fn(async(id: ResourceIdentifier, representation: Representation): Promise<unknown> => {
        written.set(id.path, representation);
        return new Map();
      }),
    } as unknown as ResourceStore;
  });

  it('writes {base}.acl as Turtle when it is missing', async(): Promise<void> => {
    await new RootAclInitializer('http://pod.example', store, 'https://alice.example/#me').handle();
    const representation = written.get(`${BASE}.acl`)!;
    expect(representation.metadata.contentType).toBe('text/turtle');
    const acl = parseAcl(await readableToString(representation.data));
    expect(acl.getObjects(`${BASE}.acl#owner`, `${ACL}agent`, null)[0].value).toBe('https://alice.example/#me');
  });

  it('gives every listed owner control, and with none configured writes an ACL without an owner', async(): Promise<void> => {
    await new RootAclInitializer(BASE, store, 'https://a.example/#me, https://b.example/#me').handle();
    const both = parseAcl(await readableToString(written.get(`${BASE}.acl`)!.data));
    expect(both.getObjects(`${BASE}.acl#owner`, `${ACL}agent`, null).map((term): string => term.value).sort())
      .toEqual([ 'https://a.example/#me', 'https://b.example/#me' ]);
    await new RootAclInitializer(BASE, store, '').handle();
    const none = parseAcl(await readableToString(written.get(`${BASE}.acl`)!.data));
    expect(none.getObjects(`${BASE}.acl#owner`, `${ACL}agent`, null)).toEqual([]);
    expect(none.getObjects(`${BASE}.acl#public`, `${ACL}mode`, null).map((term): string => term.value)).toEqual([ `${ACL}Read` ]);
  });

  it('warns of an ACL without owner unless the setup says what that means there', async(): Promise<void> => {
    const logged = (initializer: RootAclInitializer): { warn: jest.Mock; info: jest.Mock } => {
      const logger = { warn: jest.fn(), info: jest.fn() };
      (initializer as unknown as { logger: typeof logger }).logger = logger;
      return logger;
    };
    const plain = new RootAclInitializer(BASE, store, '');
    const plainLog = logged(plain);
    await plain.handle();
    expect(plainLog.warn).toHaveBeenCalledWith(expect.stringContaining('nobody can write'));

    const pods = new RootAclInitializer(BASE, store, '', 'users write in their own storages');
    const podsLog = logged(pods);
    await pods.handle();
    expect(podsLog.warn).not.toHaveBeenCalled();
    expect(podsLog.info).toHaveBeenCalledWith(expect.stringContaining('users write in their own storages'));
  });

  it('never touches an existing root ACL', async(): Promise<void> => {
    existing.add(`${BASE}.acl`);
    await new RootAclInitializer(BASE, store, 'https://alice.example/#me').handle();
    expect(store.setRepresentation).not.toHaveBeenCalled();
  });

  it('fails start-up on an invalid owner instead of writing a broken ACL', async(): Promise<void> => {
    await expect(new RootAclInitializer(BASE, store, 'not-a-webid').handle()).rejects.toThrow('not an absolute IRI');
    expect(store.setRepresentation).not.toHaveBeenCalled();
  });
});
