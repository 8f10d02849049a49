import { randomUUID } from 'node:crypto';
import { CollectionStore } from '../../../src/storage/CollectionStore';
import { MemberIndex } from '../../../src/storage/MemberIndex';
import type { SparqlClient } from '../../../src/storage/SparqlClient';
import { sparqlIri } from '../../../src/storage/SparqlTerms';
import { FEDPOD_NS } from '../../../src/storage/StoreVocabulary';
import { STORES } from './support/storageStores';

/**
 * A large collection's count is its kept total (a lookup, not a scan of its items), moved by every
 * add and remove in the same update, on every store: the updates' OPTIONAL and BIND read the total
 * and skip it where there is none.
 */
const BASE = 'https://pod.example/';
/** More than the size from which a counted collection keeps its total. */
const LARGE = 70;

describe.each(STORES)('CollectionStore totals on $name', ({ client: makeClient, prepare, finish }): void => {
  let client: SparqlClient;
  let collections: CollectionStore;
  let run: string;

  beforeAll(prepare);
  afterAll(finish);

  beforeEach((): void => {
    client = makeClient();
    collections = new CollectionStore(client, undefined, undefined, new MemberIndex(client));
    run = randomUUID();
  });

  afterEach((): void => {
    client.close();
  });

  /** The totals the store keeps for the collection (none, or one). */
  async function keptTotals(collection: string): Promise<number[]> {
    const rows = await client.select(`SELECT ?n WHERE { GRAPH ${sparqlIri(MemberIndex.graphOf(collection))} {
  ${sparqlIri(collection)} ${sparqlIri(`${FEDPOD_NS}total`)} ?n } }`);
    return rows.map((row): number => Number(row.n.value));
  }

  it('keeps a large collection\'s total through adds and removes, and counts a small one without keeping it', async(): Promise<void> => {
    const outbox = `${BASE}actors/a-${run}/outbox`;
    const small = `${BASE}actors/a-${run}/followers`;
    const empty = `${BASE}objects/${run}/likes`;
    await collections.addAll(Array.from({ length: LARGE }, (unused, index): { collection: string; item: string } =>
      ({ collection: outbox, item: `${BASE}activities/${run}-${index}` })));
    await collections.add(small, `${BASE}actors/b-${run}`);
    expect(await keptTotals(outbox)).toEqual([]);

    expect(await collections.counts([ outbox, small, empty ])).toEqual([ LARGE, 1, 0 ]);
    expect(await keptTotals(outbox)).toEqual([ LARGE ]);
    expect(await keptTotals(small)).toEqual([]);
    expect(await keptTotals(empty)).toEqual([]);

    // A new item moves the total; the same item again, or removing an item that is not there, does not.
    await collections.add(outbox, `${BASE}activities/${run}-new`);
    await collections.add(outbox, `${BASE}activities/${run}-new`);
    await collections.addAll([{ collection: outbox, item: `${BASE}activities/${run}-0` }]);
    expect(await keptTotals(outbox)).toEqual([ LARGE + 1 ]);
    await collections.remove(outbox, `${BASE}activities/${run}-1`);
    await collections.remove(outbox, `${BASE}activities/${run}-1`);
    await collections.remove(outbox, `${BASE}activities/${run}-never`);
    expect(await keptTotals(outbox)).toEqual([ LARGE ]);
    expect(await collections.count(outbox)).toBe(LARGE);
    expect(await collections.all(outbox)).toHaveLength(LARGE);

    // Adds and removes of a small collection leave it without a total, counted each time.
    await collections.remove(small, `${BASE}actors/b-${run}`);
    expect(await collections.counts([ small, outbox ])).toEqual([ 0, LARGE ]);
    expect(await keptTotals(small)).toEqual([]);
  });

  it('counts again a total written twice, and keeps one', async(): Promise<void> => {
    const outbox = `${BASE}actors/c-${run}/outbox`;
    await collections.addAll(Array.from({ length: LARGE }, (unused, index): { collection: string; item: string } =>
      ({ collection: outbox, item: `${BASE}activities/${run}-${index}` })));
    await client.update(`INSERT DATA { GRAPH ${sparqlIri(MemberIndex.graphOf(outbox))} {
  ${sparqlIri(outbox)} ${sparqlIri(`${FEDPOD_NS}total`)} 3, 5 } }`);
    expect(await collections.count(outbox)).toBe(LARGE);
    expect(await keptTotals(outbox)).toEqual([ LARGE ]);
  });
});
