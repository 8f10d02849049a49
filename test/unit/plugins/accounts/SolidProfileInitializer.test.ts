import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataFactory } from 'n3';
import { FileAccountStore } from '../../../../src/plugins/accounts/FileAccountStore';
import { SolidProfileInitializer } from '../../../../src/plugins/accounts/SolidProfileInitializer';
import type { UserStorage } from '../../../../src/plugins/ldp/UserStorage';
import { documentMetadata } from '../../../../src/storage/ResourceGraphs';
import { ResourceGraphStore } from '../../../../src/storage/ResourceGraphStore';
import { Skolemizer } from '../../../../src/storage/Skolemizer';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../support/embeddedGraphs';

const { literal, namedNode, quad } = DataFactory;

const BASE = 'https://pod.example/';
const ISSUER = 'https://pod.example/';
const OIDC_ISSUER = 'http://www.w3.org/ns/solid/terms#oidcIssuer';
const PIM_STORAGE = 'http://www.w3.org/ns/pim/space#storage';
const NAME = 'https://www.w3.org/ns/activitystreams#name';

/** A user storage that records the containers made; the container's existence is the store's (as CSS's store makes it). */
class RecordingStorage {
  public readonly created: string[] = [];
  public constructor(private readonly graphs: EmbeddedGraphs) {}
  public storageOf(username: string): string {
    return `${BASE}pods/${username}/`;
  }

  public async ensure(username: string): Promise<boolean> {
    const container = this.storageOf(username);
    if (await this.graphs.resources.exists(container)) {
      return false;
    }
    this.created.push(username);
    await this.graphs.resources.write(container, undefined, documentMetadata(container, new Date()));
    return true;
  }
}

describe('SolidProfileInitializer (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let dataDir: string;
  let accounts: FileAccountStore;
  let counter = 0;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-solid-profiles-'));
    accounts = new FileAccountStore(dataDir);
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** An account with an actor document holding only its name; returns its username. */
  async function account(withDocument = true): Promise<string> {
    counter += 1;
    const username = `user${counter}`;
    const webId = `${BASE}actors/${username}`;
    await accounts.create({ username, email: `${username}@example.org`, webId, passwordHash: 'x', created: new Date().toISOString() });
    if (withDocument) {
      await graphs.resources.write(webId, `${BASE}actors/`, documentMetadata(webId, new Date()),
        [ quad(namedNode(webId), namedNode(NAME), literal(username)) ]);
    }
    return username;
  }

  async function objectsOf(username: string, predicate: string): Promise<string[]> {
    const webId = `${BASE}actors/${username}`;
    return (await graphs.resources.readData(webId)).filter((entry): boolean => entry.subject.value === webId &&
      entry.predicate.value === predicate).map((entry): string => entry.object.value);
  }

  it('gives every WebID its issuer, keeping the rest of the document, and marks the issuer done', async(): Promise<void> => {
    const alice = await account();
    const bob = await account();
    const ghost = await account(false);
    await new SolidProfileInitializer(BASE, dataDir, accounts, graphs.resources, ISSUER).handle();
    for (const username of [ alice, bob ]) {
      expect(await objectsOf(username, OIDC_ISSUER)).toEqual([ ISSUER ]);
      expect(await objectsOf(username, NAME)).toEqual([ username ]);
      expect(await objectsOf(username, PIM_STORAGE)).toEqual([]);
    }
    expect(await graphs.resources.exists(`${BASE}actors/${ghost}`)).toBe(false);
    expect(readFileSync(join(dataDir, 'accounts', 'solid-profiles-done'), 'utf8')).toBe(ISSUER);
  });

  it('does not write a WebID that has its issuer already', async(): Promise<void> => {
    const alice = await account();
    const written: string[] = [];
    const store = new ResourceGraphStore(graphs.client, new Skolemizer(BASE), { created: (): void => undefined,
      updated: (iri): void => {
        written.push(iri);
      },
      deleted: (): void => undefined });
    await new SolidProfileInitializer(BASE, dataDir, accounts, store, ISSUER).handle();
    expect(written).toEqual([ `${BASE}actors/${alice}` ]);
    rmSync(join(dataDir, 'accounts', 'solid-profiles-done'));
    await new SolidProfileInitializer(BASE, dataDir, accounts, store, ISSUER).handle();
    expect(written).toHaveLength(1);
    expect(await objectsOf(alice, OIDC_ISSUER)).toEqual([ ISSUER ]);
  });

  it('runs once per issuer: the marker skips accounts on later starts, another issuer runs again', async(): Promise<void> => {
    const alice = await account();
    await new SolidProfileInitializer(BASE, dataDir, accounts, graphs.resources, ISSUER).handle();
    const late = await account();
    await new SolidProfileInitializer(BASE, dataDir, accounts, graphs.resources, ISSUER).handle();
    expect(await objectsOf(late, OIDC_ISSUER)).toEqual([]);
    await new SolidProfileInitializer(BASE, dataDir, accounts, graphs.resources, 'https://login.example/').handle();
    expect(await objectsOf(late, OIDC_ISSUER)).toEqual([ 'https://login.example/' ]);
    expect((await objectsOf(alice, OIDC_ISSUER)).sort()).toEqual([ 'https://login.example/', ISSUER ].sort());
  });

  it('with user storage, makes the storage an account lacks and names it in the WebID', async(): Promise<void> => {
    const alice = await account();
    const bob = await account();
    const storage = new RecordingStorage(graphs);
    await storage.ensure(bob);
    storage.created.length = 0;
    await new SolidProfileInitializer(BASE, dataDir, accounts, graphs.resources, ISSUER, storage as unknown as UserStorage).handle();
    expect(storage.created).toEqual([ alice ]);
    expect(await objectsOf(alice, PIM_STORAGE)).toEqual([ `${BASE}pods/${alice}/` ]);
    expect(await objectsOf(bob, PIM_STORAGE)).toEqual([ `${BASE}pods/${bob}/` ]);
    expect(readFileSync(join(dataDir, 'accounts', 'solid-profiles-done'), 'utf8')).toBe(`${ISSUER} storage`);
  });

  it('gives the accounts of a setup without storage theirs once that setup gets storage, each once', async(): Promise<void> => {
    const alice = await account();
    // The setup without storage: the issuer only.
    await new SolidProfileInitializer(BASE, dataDir, accounts, graphs.resources, ISSUER).handle();
    expect(await objectsOf(alice, PIM_STORAGE)).toEqual([]);
    const storage = new RecordingStorage(graphs);
    await new SolidProfileInitializer(BASE, dataDir, accounts, graphs.resources, ISSUER, storage as unknown as UserStorage).handle();
    expect(storage.created).toEqual([ alice ]);
    expect(await objectsOf(alice, PIM_STORAGE)).toEqual([ `${BASE}pods/${alice}/` ]);
    // A start stopped before its marker was written goes through every account again: nothing is made twice.
    rmSync(join(dataDir, 'accounts', 'solid-profiles-done'));
    await new SolidProfileInitializer(BASE, dataDir, accounts, graphs.resources, ISSUER, storage as unknown as UserStorage).handle();
    expect(storage.created).toEqual([ alice ]);
    expect(await objectsOf(alice, PIM_STORAGE)).toEqual([ `${BASE}pods/${alice}/` ]);
  });
});
