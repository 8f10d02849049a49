import { randomUUID } from 'node:crypto';
import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { CollectionStore } from '../../../src/storage/CollectionStore';
import { MemberIndex } from '../../../src/storage/MemberIndex';
import { documentMetadata } from '../../../src/storage/ResourceGraphs';
import { ResourceGraphStore } from '../../../src/storage/ResourceGraphStore';
import { Skolemizer } from '../../../src/storage/Skolemizer';
import type { SparqlClient } from '../../../src/storage/SparqlClient';
import { STORES } from './support/storageStores';

/**
 * What an inbox entry makes readable (CollectionStore.holdsItemAbout, behind /remote): the activity
 * itself, and the object of a Create or Update; not the object an Announce or Like names, which
 * anyone may send. On every store, since the query filters on types.
 */
const { namedNode, quad } = DataFactory;
const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

describe.each(STORES)('CollectionStore.holdsItemAbout on $name', ({ client: makeClient, prepare, finish }): void => {
  let client: SparqlClient;
  let collections: CollectionStore;
  let run: string;

  beforeAll(prepare);
  afterAll(finish);

  beforeEach((): void => {
    client = makeClient();
    const index = new MemberIndex(client);
    const resources = new ResourceGraphStore(client, new Skolemizer(BASE), undefined, index);
    collections = new CollectionStore(client, undefined, undefined, index, resources);
    run = randomUUID();
  });

  afterEach((): void => {
    client.close();
  });

  const activity = (iri: string, type: string, object: string): Quad[] => [
    quad(namedNode(iri), namedNode(RDF_TYPE), namedNode(`${AS}${type}`)),
    quad(namedNode(iri), namedNode(`${AS}object`), namedNode(object)),
  ];

  it.each([ [ 'Create', true ], [ 'Update', true ], [ 'Announce', false ], [ 'Like', false ] ])(
    'an inbox holding a %s makes its object readable: %s', async(type, readable): Promise<void> => {
      const inbox = `${BASE}actors/a-${run}/inbox`;
      const item = `https://remote.example/${run}/${type}`;
      const note = `https://remote.example/${run}/note`;
      await collections.addAll([{ collection: inbox, item }],
        [{ iri: item, parent: undefined, metadata: documentMetadata(item, new Date()), data: activity(item, type, note) }]);
      expect(await collections.holdsItemAbout(inbox, item)).toBe(true);
      expect(await collections.holdsItemAbout(inbox, note)).toBe(readable);
      expect(await collections.holdsItemAbout(`${BASE}actors/b-${run}/inbox`, note)).toBe(false);
    },
  );
});
