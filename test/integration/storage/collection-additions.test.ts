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
 * Items added to collections together with resources written in the same update (a received
 * activity with its inbox entries), on every store: the stores' dialects differ in how they take an
 * update of several operations, some of them `INSERT ... WHERE` with a sub-select. And what such an
 * inbox entry makes readable.
 */
const { literal, namedNode, quad } = DataFactory;
const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams#';
const CONTENT = `${AS}content`;
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

describe.each(STORES)('CollectionStore.addAll on $name', ({ client: makeClient, prepare, finish }): void => {
  let client: SparqlClient;
  let resources: ResourceGraphStore;
  let collections: CollectionStore;
  let run: string;

  beforeAll(prepare);
  afterAll(finish);

  beforeEach((): void => {
    client = makeClient();
    const index = new MemberIndex(client);
    resources = new ResourceGraphStore(client, new Skolemizer(BASE), undefined, index);
    collections = new CollectionStore(client, undefined, undefined, index, resources);
    run = randomUUID();
  });

  afterEach((): void => {
    client.close();
  });

  const note = (iri: string, content: string): Quad[] => [ quad(namedNode(iri), namedNode(CONTENT), literal(content)) ];

  it('writes a resource and adds it to several collections, and keeps one entry when added again', async(): Promise<void> => {
    const activity = `https://remote.example/${run}/create`;
    const inboxes = [ `${BASE}actors/a-${run}/inbox`, `${BASE}actors/b-${run}/inbox` ];
    await collections.addAll(inboxes.map((collection): { collection: string; item: string } => ({ collection, item: activity })),
      [{ iri: activity, parent: undefined, metadata: documentMetadata(activity, new Date()), data: note(activity, 'first') }]);
    expect((await resources.readData(activity)).map((entry): string => entry.object.value)).toEqual([ 'first' ]);
    for (const inbox of inboxes) {
      expect(await collections.all(inbox)).toEqual([ activity ]);
      expect((await collections.page(inbox, { limit: 10 })).items.map((item): string => item.iri)).toEqual([ activity ]);
    }

    // Again, with new data: the resource is replaced, the entries stay one each.
    await collections.addAll(inboxes.map((collection): { collection: string; item: string } => ({ collection, item: activity })),
      [{ iri: activity, parent: undefined, metadata: documentMetadata(activity, new Date()), data: note(activity, 'second') }]);
    expect((await resources.readData(activity)).map((entry): string => entry.object.value)).toEqual([ 'second' ]);
    for (const inbox of inboxes) {
      expect(await collections.count(inbox)).toBe(1);
    }
  });

  it('writes metadata only, keeping the data, along with an item', async(): Promise<void> => {
    const activity = `https://remote.example/${run}/like`;
    const inbox = `${BASE}actors/c-${run}/inbox`;
    await resources.write(activity, undefined, [ ...documentMetadata(activity, new Date()),
      quad(namedNode(activity), namedNode('urn:example:mark'), literal('pending')) ], note(activity, 'kept'));
    await collections.addAll([{ collection: inbox, item: activity }],
      [{ iri: activity, parent: undefined, metadata: documentMetadata(activity, new Date()) }]);
    expect((await resources.readMetadata(activity)).some((entry): boolean => entry.predicate.value === 'urn:example:mark')).toBe(false);
    expect((await resources.readData(activity)).map((entry): string => entry.object.value)).toEqual([ 'kept' ]);
    expect(await collections.all(inbox)).toEqual([ activity ]);
  });

  // What an inbox entry makes readable (holdsItemAbout, behind /remote): the activity itself, and the
  // object of a Create or Update; not the object an Announce or Like names, which anyone may send.
  it.each([ [ 'Create', true ], [ 'Update', true ], [ 'Announce', false ], [ 'Like', false ] ])(
    'an inbox holding a %s makes its object readable: %s', async(type, readable): Promise<void> => {
      const inbox = `${BASE}actors/a-${run}/inbox`;
      const item = `https://remote.example/${run}/${type}`;
      const object = `https://remote.example/${run}/note`;
      const data = [ quad(namedNode(item), namedNode(RDF_TYPE), namedNode(`${AS}${type}`)),
        quad(namedNode(item), namedNode(`${AS}object`), namedNode(object)) ];
      await collections.addAll([{ collection: inbox, item }], [{ iri: item, parent: undefined, metadata: documentMetadata(item, new Date()), data }]);
      expect(await collections.holdsItemAbout(inbox, item)).toBe(true);
      expect(await collections.holdsItemAbout(inbox, object)).toBe(readable);
      expect(await collections.holdsItemAbout(`${BASE}actors/b-${run}/inbox`, object)).toBe(false);
    },
  );
});
