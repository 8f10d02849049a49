import { randomUUID } from 'node:crypto';
import { MemberIndex } from '../../../src/storage/MemberIndex';
import { documentMetadata } from '../../../src/storage/ResourceGraphs';
import { ResourceGraphStore } from '../../../src/storage/ResourceGraphStore';
import { Skolemizer } from '../../../src/storage/Skolemizer';
import type { SparqlClient } from '../../../src/storage/SparqlClient';
import { sparqlIri } from '../../../src/storage/SparqlTerms';
import { LDP_CONTAINS } from '../../../src/storage/StoreVocabulary';
import { STORES } from './support/storageStores';

/**
 * The paging index's own updates on the external stores, whose SPARQL dialects differ from the
 * embedded store's (the unit tests run there): indexing a container stored before the index, and
 * two nodes indexing one container at once.
 */
const BASE = 'https://pod.example/';

describe.each(STORES)('MemberIndex on $name', ({ client: makeClient, prepare, finish }): void => {
  let client: SparqlClient;
  let container: string;

  beforeAll(prepare);
  afterAll(finish);

  beforeEach(async(): Promise<void> => {
    client = makeClient();
    container = `${BASE}${randomUUID()}/`;
    const store = new ResourceGraphStore(client, new Skolemizer(BASE), undefined, new MemberIndex(client, { bucketSize: 2 }));
    await store.write(container, undefined, documentMetadata(container, new Date()));
  });

  function storeOf(sparql: SparqlClient): ResourceGraphStore {
    return new ResourceGraphStore(sparql, new Skolemizer(BASE), undefined, new MemberIndex(sparql, { bucketSize: 2 }));
  }

  async function listed(store: ResourceGraphStore): Promise<string[]> {
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = (await store.readContainerPage(container, 2, after))!;
      seen.push(...page.members.map((member): string => member.iri.slice(container.length)));
      after = page.nextAfter;
    } while (after);
    return seen;
  }

  async function create(store: ResourceGraphStore, name: string): Promise<void> {
    const iri = `${container}${name}`;
    await store.createInContainer(container, iri, [], documentMetadata(iri, new Date()), new Date());
  }

  it('indexes a container stored before the index in its old order, once', async(): Promise<void> => {
    const old = [ 'b', 'd', 'a', 'c', 'e' ].map((name): string => `${container}${name}`);
    await client.update(`INSERT DATA { GRAPH ${sparqlIri(container)} { ${old.map((iri): string =>
      `${sparqlIri(container)} ${sparqlIri(LDP_CONTAINS)} ${sparqlIri(iri)} .`).join(' ')} } }`);
    const store = storeOf(client);
    expect(await listed(store)).toEqual([ 'e', 'd', 'c', 'b', 'a' ]);
    // A second node builds too (it has no head yet); every member keeps its one bucket.
    const second = storeOf(makeClient());
    await create(second, '0');
    expect(await listed(store)).toEqual([ 'e', '0', 'd', 'c', 'b', 'a' ]);
  });

  it('keeps the members another node adds while this node indexes the container', async(): Promise<void> => {
    const nodeB = storeOf(makeClient());
    // Node A reads the directory before B's first member lands; B adds another while A indexes.
    let hooked = false;
    const late = makeClient();
    const select = late.select.bind(late);
    late.select = async(query: string): ReturnType<SparqlClient['select']> => {
      const rows = await select(query);
      if (!hooked && query.includes('MAX(?bucket)')) {
        hooked = true;
        await create(nodeB, 'b1');
      }
      return rows;
    };
    const nodeA = new MemberIndex(late, { bucketSize: 2 });
    await nodeA.bucketFor(container, async(): Promise<string[]> => {
      await create(nodeB, 'b2');
      return [ `${container}b1` ];
    });
    await create(new ResourceGraphStore(late, new Skolemizer(BASE), undefined, nodeA), 'a1');
    expect(hooked).toBe(true);
    expect((await listed(storeOf(client))).sort()).toEqual([ 'a1', 'b1', 'b2' ]);
  });
});
