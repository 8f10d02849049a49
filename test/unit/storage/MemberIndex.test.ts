import { DataFactory } from 'n3';
import { CollectionStore } from '../../../src/storage/CollectionStore';
import { InvalidCursorError } from '../../../src/storage/InvalidCursorError';
import { MemberIndex } from '../../../src/storage/MemberIndex';
import { documentMetadata } from '../../../src/storage/ResourceGraphs';
import { ResourceGraphStore } from '../../../src/storage/ResourceGraphStore';
import { Skolemizer } from '../../../src/storage/Skolemizer';
import { SparqlClient } from '../../../src/storage/SparqlClient';
import { sparqlIri } from '../../../src/storage/SparqlTerms';
import { LDP_CONTAINS } from '../../../src/storage/StoreVocabulary';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../support/embeddedGraphs';

const { literal, namedNode, quad } = DataFactory;

const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams#';

/** A client over the same store that keeps the text of every query it sends. */
class RecordingClient extends SparqlClient {
  public readonly queries: string[] = [];

  public override async select(query: string): Promise<Awaited<ReturnType<SparqlClient['select']>>> {
    this.queries.push(query);
    return super.select(query);
  }
}

describe('MemberIndex (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let client: RecordingClient;
  let index: MemberIndex;
  let resources: ResourceGraphStore;
  let counter = 0;
  let container: string;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  beforeEach(async(): Promise<void> => {
    client = new RecordingClient(graphs.client.queryUrl, graphs.client.updateUrl, 'admin', 'admin');
    index = new MemberIndex(client, { bucketSize: 2 });
    resources = new ResourceGraphStore(client, new Skolemizer(BASE), undefined, index);
    counter += 1;
    container = `${BASE}c${counter}/`;
    await resources.write(container, undefined, documentMetadata(container, new Date()));
  });

  /** Adds one member per write, in the order given. */
  async function add(...names: string[]): Promise<string[]> {
    for (const name of names) {
      const iri = `${container}${name}`;
      await resources.createInContainer(container, iri, [ quad(namedNode(iri), namedNode(`${AS}name`), literal(name)) ],
        documentMetadata(iri, new Date()), new Date());
    }
    return names.map((name): string => `${container}${name}`);
  }

  /** Every member, page by page, following the cursors. */
  async function pages(limit: number): Promise<string[][]> {
    const seen: string[][] = [];
    let after: string | undefined;
    for (;;) {
      const page = await resources.readContainerPage(container, limit, after);
      seen.push(page!.members.map((member): string => member.iri.slice(container.length)));
      if (!page!.nextAfter) {
        return seen;
      }
      after = page!.nextAfter;
    }
  }

  it('lists a container in the order its members were added, newest first, across buckets', async(): Promise<void> => {
    await add('z', 'a', 'y', 'b', 'x');
    // Buckets of two: [z a] [y b] [x]; inside a bucket, by IRI.
    expect(await pages(2)).toEqual([[ 'x', 'y' ], [ 'b', 'z' ], [ 'a' ]]);
    expect(await pages(10)).toEqual([[ 'x', 'y', 'b', 'z', 'a' ]]);
  });

  it('reads only the buckets a page needs, whatever the size of the container', async(): Promise<void> => {
    await add(...Array.from({ length: 40 }, (unused, position): string => `m${String(position).padStart(2, '0')}`));
    client.queries.length = 0;
    const page = await resources.readContainerPage(container, 3);
    expect(page!.members.map((member): string => member.iri.slice(container.length))).toEqual([ 'm39', 'm38', 'm37' ]);
    const memberQueries = client.queries.filter((query): boolean => query.includes('VALUES ?bucket'));
    expect(memberQueries).toHaveLength(1);
    // A page of 3 (and one more, to know of a next page) from buckets of 2: the newest three buckets.
    expect(/VALUES \?bucket \{ ([^}]*) \}/u.exec(memberQueries[0])![1].trim().split(' ')).toEqual([ '19', '18', '17' ]);
  });

  it('keeps a member written again in its place, and drops deleted members and containers', async(): Promise<void> => {
    const [ first, second, third ] = await add('p', 'q', 'r');
    await resources.write(first, container, documentMetadata(first, new Date()), []);
    expect(await pages(10)).toEqual([[ 'r', 'q', 'p' ]]);
    await resources.delete(second, container);
    expect(await pages(10)).toEqual([[ 'r', 'p' ]]);
    const child = `${container}sub/`;
    await resources.write(child, container, documentMetadata(child, new Date()));
    expect(await pages(10)).toEqual([[ 'sub/', 'r', 'p' ]]);
    await resources.write(`${child}x`, child, documentMetadata(`${child}x`, new Date()), []);
    await resources.delete(child, container);
    await resources.delete(third, container);
    await resources.write(child, container, documentMetadata(child, new Date()));
    expect((await resources.readContainerPage(child, 10))!.members).toEqual([]);
    expect(await pages(10)).toEqual([[ 'sub/', 'p' ]]);
  });

  it('indexes, on first use, a container whose members were stored before the index', async(): Promise<void> => {
    const old = [ 'b', 'd', 'a', 'c', 'e' ].map((name): string => `${container}${name}`);
    await client.update(`INSERT DATA { GRAPH ${sparqlIri(container)} { ${old.map((iri): string =>
      `${sparqlIri(container)} ${sparqlIri(LDP_CONTAINS)} ${sparqlIri(iri)} .`).join(' ')} } }`);
    // The old order was by IRI, highest first; it stays, and a new member joins the newest bucket.
    expect(await pages(2)).toEqual([[ 'e', 'd' ], [ 'c', 'b' ], [ 'a' ]]);
    await add('0');
    expect(await pages(2)).toEqual([[ 'e', '0' ], [ 'd', 'c' ], [ 'b', 'a' ]]);
  });

  it('indexes an old container on its first write as well as on its first read', async(): Promise<void> => {
    await client.update(`INSERT DATA { GRAPH ${sparqlIri(container)} { ${sparqlIri(container)} ${sparqlIri(LDP_CONTAINS)} ${sparqlIri(`${container}old`)} } }`);
    await add('new');
    // One bucket: by IRI inside it.
    expect(await pages(10)).toEqual([[ 'old', 'new' ]]);
  });

  it('keeps the members another node indexes while this node indexes an old container', async(): Promise<void> => {
    // Node B writes through its own index. Node A reads the directory before B's first write lands,
    // and B adds one more member between A reading the old members and A indexing them.
    const nodeB = new ResourceGraphStore(client, new Skolemizer(BASE), undefined, new MemberIndex(client, { bucketSize: 2 }));
    const addOnB = async(name: string): Promise<void> => {
      const iri = `${container}${name}`;
      await nodeB.createInContainer(container, iri, [], documentMetadata(iri, new Date()), new Date());
    };
    class LateClient extends SparqlClient {
      private first = true;
      public override async select(query: string): Promise<Awaited<ReturnType<SparqlClient['select']>>> {
        const rows = await super.select(query);
        if (this.first && query.includes('MAX(?bucket)')) {
          this.first = false;
          await addOnB('b1');
        }
        return rows;
      }
    }
    const late = new LateClient(graphs.client.queryUrl, graphs.client.updateUrl, 'admin', 'admin');
    const nodeA = new MemberIndex(late, { bucketSize: 2 });
    const bucket = await nodeA.bucketFor(container, async(): Promise<string[]> => {
      const seen = [ `${container}b1` ];
      await addOnB('b2');
      return seen;
    });
    await client.update(`INSERT DATA { ${nodeA.entries(container, `${container}a1`, bucket)} GRAPH ${sparqlIri(container)} {
      ${sparqlIri(container)} ${sparqlIri(LDP_CONTAINS)} ${sparqlIri(`${container}a1`)} } }`);
    expect((await pages(10)).flat().sort()).toEqual([ 'a1', 'b1', 'b2' ]);
  });

  it('refuses a cursor it did not make', async(): Promise<void> => {
    await add('a');
    await expect(resources.readContainerPage(container, 1, `${container}a`)).rejects.toThrow(InvalidCursorError);
  });

  it('opens a new bucket only when the head bucket is full of members, not of rewrites', async(): Promise<void> => {
    const [ only ] = await add('only');
    for (let round = 0; round < 5; round += 1) {
      await resources.write(only, container, documentMetadata(only, new Date()), []);
    }
    await add('next');
    const rows = await graphs.client.select(`SELECT DISTINCT ?bucket WHERE { GRAPH ${sparqlIri(MemberIndex.graphOf(container))} { ?member ?p ?bucket } }`);
    expect(rows.map((row): string => row.bucket.value)).toEqual([ '0' ]);
  });

  describe('with collections', (): void => {
    let collections: CollectionStore;
    let collection: string;

    beforeEach((): void => {
      collections = new CollectionStore(client, undefined, undefined, index);
      collection = `${BASE}actors/u${counter}/outbox`;
    });

    async function addItems(count: number, addressed: (position: number) => string): Promise<string[]> {
      const items: string[] = [];
      for (let position = 0; position < count; position += 1) {
        const item = `${BASE}activities/u${counter}-${String(position).padStart(2, '0')}`;
        await graphs.put(item, [[ `${AS}to`, addressed(position), 'iri' ]]);
        await collections.add(collection, item, new Date(Date.UTC(2026, 0, 1, 0, 0, position)));
        items.push(item);
      }
      return items;
    }

    it('pages forwards and backwards across buckets without loss', async(): Promise<void> => {
      const items = await addItems(7, (): string => `${AS}Public`);
      const seen: string[] = [];
      let before: string | undefined;
      let last: { cursor: string } | undefined;
      for (;;) {
        const { items: page, more } = await collections.page(collection, { limit: 2, before });
        seen.push(...page.map((item): string => item.iri));
        last = page.at(-1);
        if (!more) {
          break;
        }
        before = last!.cursor;
      }
      expect(seen).toEqual([ ...items ].reverse());
      const oldest = await collections.page(collection, { limit: 3, after: '' });
      expect(oldest.items.map((item): string => item.iri)).toEqual([ items[2], items[1], items[0] ]);
      const newer = await collections.page(collection, { limit: 3, after: oldest.items[0].cursor });
      expect(newer.items.map((item): string => item.iri)).toEqual([ items[5], items[4], items[3] ]);
    });

    it('reads on through the buckets when the reader may see few items', async(): Promise<void> => {
      const carol = `${BASE}actors/carol`;
      const items = await addItems(20, (position): string => position % 9 === 0 ? carol : `${BASE}actors/dave`);
      const { items: page, more } = await collections.page(collection, { limit: 2, addressedTo: [ carol ]});
      expect(page.map((item): string => item.iri)).toEqual([ items[18], items[9] ]);
      expect(more).toBe(true);
      const rest = await collections.page(collection, { limit: 2, before: page[1].cursor, addressedTo: [ carol ]});
      expect(rest).toEqual({ items: [ expect.objectContaining({ iri: items[0] }) ], more: false });
    });

    it('indexes a collection stored before the index in the order of its times', async(): Promise<void> => {
      const graph = sparqlIri(collection);
      const old = [ 2, 0, 1 ].map((second): [string, number] => [ `${BASE}activities/u${counter}-old${second}`, second ]);
      await client.update(`INSERT DATA { GRAPH ${graph} { ${old.map(([ item, second ]): string =>
        `${graph} ${sparqlIri(`${AS}items`)} ${sparqlIri(item)} . ${sparqlIri(item)} <urn:fedpod:ns:addedAt> "${new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString()}"^^<http://www.w3.org/2001/XMLSchema#dateTime> .`).join(' ')} } }`);
      const { items } = await collections.page(collection, { limit: 5 });
      expect(items.map((item): string => item.iri.slice(-4))).toEqual([ 'old2', 'old1', 'old0' ]);
      await collections.remove(collection, old[0][0]);
      expect((await collections.page(collection, { limit: 5 })).items).toHaveLength(2);
    });
  });

  it('forgets the heads of the least recently used lists and reads them again when needed', async(): Promise<void> => {
    const small = new MemberIndex(client, { bucketSize: 2, maxLists: 1 });
    const store = new ResourceGraphStore(client, new Skolemizer(BASE), undefined, small);
    const other = `${BASE}o${counter}/`;
    await store.write(other, undefined, documentMetadata(other, new Date()));
    await store.createInContainer(container, `${container}a`, [], documentMetadata(`${container}a`, new Date()), new Date());
    await store.createInContainer(other, `${other}a`, [], documentMetadata(`${other}a`, new Date()), new Date());
    await store.createInContainer(container, `${container}b`, [], documentMetadata(`${container}b`, new Date()), new Date());
    expect((await store.readContainerPage(container, 5))!.members.map((member): string => member.iri))
      .toEqual([ `${container}b`, `${container}a` ]);
  });
});
