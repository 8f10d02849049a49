import { randomUUID } from 'node:crypto';
import { DataFactory } from 'n3';
import { MemberIndex } from '../../../src/storage/MemberIndex';
import { documentMetadata } from '../../../src/storage/ResourceGraphs';
import { ResourceGraphStore } from '../../../src/storage/ResourceGraphStore';
import { Skolemizer } from '../../../src/storage/Skolemizer';
import type { SparqlClient } from '../../../src/storage/SparqlClient';
import { sparqlIri } from '../../../src/storage/SparqlTerms';
import { DC_MODIFIED, metadataGraphOf, XSD_DATETIME } from '../../../src/storage/StoreVocabulary';
import { STORES } from './support/storageStores';

const { namedNode } = DataFactory;
const BASE = 'https://pod.example/';

/**
 * A container that two touches at once left with two modification dates (Virtuoso does not
 * serialise the updates) reads as one date, the latest, and its next touch leaves one.
 */
describe.each(STORES)('modification dates on $name', ({ client: makeClient, prepare, finish }): void => {
  let client: SparqlClient;
  let store: ResourceGraphStore;
  let container: string;

  beforeAll(prepare);
  afterAll(finish);

  beforeEach(async(): Promise<void> => {
    client = makeClient();
    store = new ResourceGraphStore(client, new Skolemizer(BASE), undefined, new MemberIndex(client));
    container = `${BASE}${randomUUID()}/`;
    await store.write(container, undefined, documentMetadata(container, new Date('2026-01-01T00:00:00.000Z')));
  });

  afterEach((): void => {
    client.close();
  });

  /** The container's dates as ISO strings (stores rewrite `.000Z` as `Z`). */
  async function dates(): Promise<string[]> {
    return (await store.readMetadata(container)).filter((entry): boolean => entry.predicate.value === DC_MODIFIED)
      .map((entry): string => new Date(entry.object.value).toISOString());
  }

  async function modified(iri: string): Promise<string | undefined> {
    const value = await store.readModified(iri);
    return value === undefined ? undefined : new Date(value).toISOString();
  }

  it('reads the latest of two dates, and keeps one after the next write', async(): Promise<void> => {
    expect(await modified(container)).toBe('2026-01-01T00:00:00.000Z');
    await client.update(`INSERT DATA { GRAPH ${sparqlIri(metadataGraphOf(container))} { ${sparqlIri(container)}
      ${sparqlIri(DC_MODIFIED)} "2026-01-01T00:00:00.500Z"^^${sparqlIri(XSD_DATETIME)} } }`);
    // Later as a date, though not as text when the store writes the first as `...00Z`.
    expect(await modified(container)).toBe('2026-01-01T00:00:00.500Z');
    expect(await dates()).toEqual([ '2026-01-01T00:00:00.500Z' ]);
    expect((await store.read(container))!.metadata.filter((entry): boolean => entry.predicate.equals(namedNode(DC_MODIFIED))))
      .toHaveLength(1);
    const note = `${container}note`;
    const now = new Date();
    await store.createInContainer(container, note, [], documentMetadata(note, now), now);
    expect(await dates()).toEqual([ now.toISOString() ]);
  });

  it('reads no date of a resource that has none', async(): Promise<void> => {
    expect(await modified(`${container}missing/`)).toBeUndefined();
  });
});
