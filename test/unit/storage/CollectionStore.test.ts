import { GreedyReadWriteLocker, MemoryMapStorage, MemoryResourceLocker } from '@solid/community-server';
import { DataFactory } from 'n3';
import { CollectionStore } from '../../../src/storage/CollectionStore';
import { InvalidCursorError } from '../../../src/storage/InvalidCursorError';
import type { ResourceChangeListener } from '../../../src/storage/ResourceChangeListener';
import { documentMetadata } from '../../../src/storage/ResourceGraphs';
import { InvalidTermError } from '../../../src/storage/SparqlTerms';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../support/embeddedGraphs';

const { literal, namedNode, quad } = DataFactory;
const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams#';
const PUBLIC = `${AS}Public`;

/** The n-th second of a fixed day: items added at known, distinct times. */
const at = (second: number): Date => new Date(Date.UTC(2026, 0, 1, 0, 0, second));

describe('CollectionStore (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let collections: CollectionStore;
  let updated: string[];
  let counter = 0;
  /** A fresh collection for each test. */
  let collection: string;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  beforeEach((): void => {
    updated = [];
    const changes: ResourceChangeListener = {
      created: (): void => undefined,
      updated: (iri): void => {
        updated.push(iri);
      },
      deleted: (): void => undefined,
    };
    collections = new CollectionStore(graphs.client, undefined, changes);
    counter += 1;
    collection = `${BASE}actors/u${counter}/inbox`;
  });

  /** Adds items i0, i1... at seconds 0, 1..., returning their IRIs. */
  async function fill(count: number): Promise<string[]> {
    const items = Array.from({ length: count }, (_, index): string => `${BASE}activities/u${counter}-i${index}`);
    for (const [ index, item ] of items.entries()) {
      await collections.add(collection, item, at(index));
    }
    return items;
  }

  it('adds, finds, counts and removes items, telling the listener of each change', async(): Promise<void> => {
    const [ first, second ] = await fill(2);
    expect(await collections.contains(collection, first)).toBe(true);
    expect(await collections.count(collection)).toBe(2);
    await collections.remove(collection, first);
    expect(await collections.contains(collection, first)).toBe(false);
    expect(await collections.all(collection)).toEqual([ second ]);
    expect(updated).toEqual([ collection, collection, collection ]);
  });

  it('clears a whole collection: items, total and paging index; it can be filled again', async(): Promise<void> => {
    await fill(70);
    expect(await collections.count(collection)).toBe(70);
    await collections.clear(collection);
    expect(await collections.all(collection)).toEqual([]);
    expect(await collections.count(collection)).toBe(0);
    expect((await collections.page(collection, { limit: 10 })).items).toEqual([]);
    const left = await graphs.client.select(`SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(CONTAINS(STR(?g), "${collection}")) } LIMIT 5`);
    expect(left).toEqual([]);
    expect(updated.at(-1)).toBe(collection);
    const again = `${BASE}activities/u${counter}-again`;
    await collections.add(collection, again);
    expect((await collections.page(collection, { limit: 10 })).items.map((item): string => item.iri)).toEqual([ again ]);
    expect(await collections.count(collection)).toBe(1);
  });

  it('keeps an item added twice once, at its first position', async(): Promise<void> => {
    const [ first, second ] = await fill(2);
    await collections.add(collection, first, at(10));
    expect(await collections.count(collection)).toBe(2);
    expect(await collections.all(collection)).toEqual([ first, second ]);
  });

  it('keeps one copy of an item added many times at once, with the locker', async(): Promise<void> => {
    const locked = new CollectionStore(graphs.client, new GreedyReadWriteLocker(new MemoryResourceLocker(), new MemoryMapStorage()));
    const item = `${BASE}activities/once`;
    await Promise.all(Array.from({ length: 5 }, async(_, index): Promise<void> => locked.add(collection, item, at(index))));
    expect(await locked.count(collection)).toBe(1);
    const { items } = await locked.page(collection, { limit: 10 });
    expect(items.map((entry): string => entry.iri)).toEqual([ item ]);
  });

  it('adds items to several collections and writes resources along with them in one update', async(): Promise<void> => {
    const other = `${collection}-other`;
    const item = `${BASE}activities/u${counter}-along`;
    const update = jest.spyOn(graphs.client, 'update');
    try {
      await graphs.collections.addAll([{ collection, item, at: at(1) }, { collection: other, item, at: at(2) }],
        [{ iri: item, parent: undefined, metadata: documentMetadata(item, at(1)),
          data: [ quad(namedNode(item), namedNode(`${AS}content`), literal('hello')) ]}]);
      expect(update).toHaveBeenCalledTimes(1);
    } finally {
      update.mockRestore();
    }
    expect(await graphs.collections.all(collection)).toEqual([ item ]);
    expect(await graphs.collections.all(other)).toEqual([ item ]);
    expect((await graphs.resources.readData(item)).map((entry): string => entry.object.value)).toEqual([ 'hello' ]);
    // Added again: kept once, at its first position.
    await graphs.collections.addAll([{ collection, item, at: at(3) }]);
    expect(await graphs.collections.count(collection)).toBe(1);
  });

  it('stores nothing, neither items nor resources, when one of the writes cannot be made', async(): Promise<void> => {
    const item = `${BASE}activities/u${counter}-refused`;
    await expect(graphs.collections.addAll([{ collection, item }],
      [{ iri: item, parent: undefined, metadata: documentMetadata(item, at(1)),
        data: [ quad(namedNode(item), namedNode(`${AS}url`), namedNode('not an iri')) ]}])).rejects.toThrow(InvalidTermError);
    expect(await graphs.collections.count(collection)).toBe(0);
    expect(await graphs.resources.exists(item)).toBe(false);
  });

  it('refuses to write resources along with items when it was not given the resource graphs', async(): Promise<void> => {
    const item = `${BASE}activities/u${counter}-alone`;
    await expect(collections.addAll([{ collection, item }], [{ iri: item, parent: undefined, metadata: documentMetadata(item, at(1)) }]))
      .rejects.toThrow('CollectionStore needs its resources (a ResourceGraphStore) to write resources along with items');
    expect(await collections.count(collection)).toBe(0);
  });

  it('keeps one copy of each item when overlapping sets are added at once, with the locker', async(): Promise<void> => {
    const locked = new CollectionStore(graphs.client, new GreedyReadWriteLocker(new MemoryResourceLocker(), new MemoryMapStorage()));
    const other = `${collection}-other`;
    const [ first, second ] = [ 'a', 'b' ].map((name): string => `${BASE}activities/u${counter}-${name}`);
    // Taken in opposite orders by the callers: the locks must still be had without waiting on each other for ever.
    await Promise.all(Array.from({ length: 6 }, async(_, index): Promise<void> => locked.addAll(index % 2 === 0 ?
      [{ collection, item: first }, { collection: other, item: second }, { collection, item: second }] :
      [{ collection, item: second }, { collection: other, item: second }, { collection, item: first }])));
    expect((await locked.all(collection)).sort()).toEqual([ first, second ]);
    expect(await locked.all(other)).toEqual([ second ]);
  });

  it('lists every item oldest first, and nothing of an empty collection', async(): Promise<void> => {
    const items = await fill(3);
    expect(await collections.all(collection)).toEqual(items);
    expect(await collections.all(`${collection}-empty`)).toEqual([]);
    expect(await collections.count(`${collection}-empty`)).toBe(0);
  });

  it('pages newest first by cursor, forwards with before and back with after', async(): Promise<void> => {
    const [ i0, i1, i2, i3, i4 ] = await fill(5);
    const first = await collections.page(collection, { limit: 2 });
    expect(first.items.map((item): string => item.iri)).toEqual([ i4, i3 ]);
    expect(first.more).toBe(true);
    const second = await collections.page(collection, { limit: 2, before: first.items[1].cursor });
    expect(second.items.map((item): string => item.iri)).toEqual([ i2, i1 ]);
    const last = await collections.page(collection, { limit: 2, before: second.items[1].cursor });
    expect(last.items.map((item): string => item.iri)).toEqual([ i0 ]);
    expect(last.more).toBe(false);
    // Back from the last page: the items just newer, still newest first.
    const back = await collections.page(collection, { limit: 2, after: last.items[0].cursor });
    expect(back.items.map((item): string => item.iri)).toEqual([ i2, i1 ]);
    expect(back.more).toBe(true);
  });

  it('orders items added in the same instant by IRI, and pages through them without loss', async(): Promise<void> => {
    const items = [ 'c', 'a', 'b' ].map((name): string => `${BASE}activities/u${counter}-${name}`);
    for (const item of items) {
      await collections.add(collection, item, at(0));
    }
    const seen: string[] = [];
    let before: string | undefined;
    for (;;) {
      const { items: page, more } = await collections.page(collection, { limit: 1, before });
      seen.push(...page.map((item): string => item.iri));
      if (!more) {
        break;
      }
      before = page[0].cursor;
    }
    expect(seen).toEqual([ ...items ].sort().reverse());
  });

  it('refuses a cursor it did not make', async(): Promise<void> => {
    await expect(collections.page(collection, { limit: 1, before: Buffer.from('not-a-date x').toString('base64url') }))
      .rejects.toThrow(InvalidCursorError);
    await expect(collections.page(collection, { limit: 1, after: Buffer.from('nospace').toString('base64url') }))
      .rejects.toThrow('Not a valid page cursor');
  });

  describe('with addressing', (): void => {
    const BOB = `${BASE}actors/bob`;
    const FOLLOWERS = `${BASE}actors/alice/followers`;

    /** Stores an activity addressed with `field` to `recipients` and adds it to the collection. */
    async function addAddressed(name: string, second: number, fields: [string, string][]): Promise<string> {
      const iri = `${BASE}activities/u${counter}-${name}`;
      await graphs.put(iri, fields.map(([ field, recipient ]): [string, string, 'iri'] => [ `${AS}${field}`, recipient, 'iri' ]));
      await collections.add(collection, iri, at(second));
      return iri;
    }

    it('counts and pages only the items addressed to the readers, each once', async(): Promise<void> => {
      const open = await addAddressed('open', 0, [ [ 'to', PUBLIC ], [ 'cc', FOLLOWERS ] ]);
      const direct = await addAddressed('direct', 1, [ [ 'bcc', BOB ] ]);
      const group = await addAddressed('group', 2, [ [ 'audience', FOLLOWERS ] ]);
      await addAddressed('other', 3, [ [ 'to', `${BASE}actors/carol` ] ]);
      expect(await collections.count(collection, [ PUBLIC ])).toBe(1);
      expect(await collections.count(collection, [ PUBLIC, FOLLOWERS, BOB ])).toBe(3);
      const { items } = await collections.page(collection, { limit: 10, addressedTo: [ PUBLIC, FOLLOWERS, BOB ]});
      expect(items.map((item): string => item.iri)).toEqual([ group, direct, open ]);
      expect(await collections.count(collection)).toBe(4);
    });
  });

  it('finds the collections ending in a suffix that hold an item', async(): Promise<void> => {
    const carol = 'https://remote.example/users/carol';
    const aliceFollowing = `${BASE}actors/alice${counter}/following`;
    const bobBlocked = `${BASE}actors/bob${counter}/blocked`;
    await collections.add(aliceFollowing, carol);
    await collections.add(bobBlocked, carol);
    await collections.add(`${BASE}actors/dan${counter}/followers`, carol);
    const found = await collections.collectionsContaining(carol, `${counter}/following`, `${counter}/blocked`);
    expect(found.sort()).toEqual([ aliceFollowing, bobBlocked ].sort());
    expect(await collections.collectionsContaining(`${carol}-nobody`, '/following')).toEqual([]);
  });

  it('holds an item about an IRI when it is the item or the object of a Create among them, not of an Announce', async(): Promise<void> => {
    const note = `${BASE}objects/u${counter}-note`;
    const create = `${BASE}activities/u${counter}-create`;
    const boosted = `${BASE}objects/u${counter}-boosted`;
    const announce = `${BASE}activities/u${counter}-announce`;
    const rdfType = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
    await graphs.put(create, [ [ `${AS}object`, note, 'iri' ], [ rdfType, `${AS}Create`, 'iri' ] ]);
    await graphs.put(announce, [ [ `${AS}object`, boosted, 'iri' ], [ rdfType, `${AS}Announce`, 'iri' ] ]);
    await collections.add(collection, create);
    await collections.add(collection, announce);
    expect(await collections.holdsItemAbout(collection, create)).toBe(true);
    expect(await collections.holdsItemAbout(collection, note)).toBe(true);
    expect(await collections.holdsItemAbout(collection, announce)).toBe(true);
    expect(await collections.holdsItemAbout(collection, boosted)).toBe(false);
    expect(await collections.holdsItemAbout(collection, `${BASE}objects/elsewhere`)).toBe(false);
  });
});
