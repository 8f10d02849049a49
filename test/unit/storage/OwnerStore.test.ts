import { OwnerStore } from '../../../src/storage/OwnerStore';
import { InvalidTermError } from '../../../src/storage/SparqlTerms';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../support/embeddedGraphs';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;
const BOB = `${BASE}actors/bob`;

describe('OwnerStore (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let owners: OwnerStore;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
    owners = new OwnerStore(graphs.client);
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  it('knows no owner of a resource nobody claimed', async(): Promise<void> => {
    expect(await owners.ownerOf(`${BASE}alice/unclaimed`)).toBeUndefined();
  });

  it('records the first claim and keeps it against later ones', async(): Promise<void> => {
    const iri = `${BASE}alice/notes/1`;
    await owners.claim(iri, ALICE);
    expect(await owners.ownerOf(iri)).toBe(ALICE);
    await owners.claim(iri, BOB);
    await owners.claim(iri, ALICE);
    expect(await owners.ownerOf(iri)).toBe(ALICE);
    const rows = await graphs.client.select(`SELECT ?owner WHERE { GRAPH ?g { <${iri}> ?p ?owner } }`);
    expect(rows).toHaveLength(1);
  });

  it('keeps the owners of different resources apart', async(): Promise<void> => {
    await owners.claim(`${BASE}shared/a`, ALICE);
    await owners.claim(`${BASE}shared/b`, BOB);
    expect(await owners.ownerOf(`${BASE}shared/a`)).toBe(ALICE);
    expect(await owners.ownerOf(`${BASE}shared/b`)).toBe(BOB);
  });

  it('keeps the record apart from the resource\'s own graphs, so rewriting the resource keeps it', async(): Promise<void> => {
    const iri = `${BASE}alice/doc`;
    await owners.claim(iri, ALICE);
    await graphs.put(iri, [ [ 'https://vocab.example/says', 'x', 'literal' ] ]);
    await graphs.resources.delete(iri);
    expect(await owners.ownerOf(iri)).toBe(ALICE);
  });

  it('refuses an IRI that would break out of the query as a bad request', async(): Promise<void> => {
    await expect(owners.claim(`${BASE}x> <y`, ALICE)).rejects.toThrow(InvalidTermError);
    await expect(owners.ownerOf(`${BASE}x> <y`)).rejects.toThrow(InvalidTermError);
    expect(await owners.ownerOf(`${BASE}x`)).toBeUndefined();
  });
});
