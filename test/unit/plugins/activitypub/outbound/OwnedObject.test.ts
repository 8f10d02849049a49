import { ownedObject } from '../../../../../src/plugins/activitypub/outbound/OwnedObject';
import { AS, BASE, LocalWorld } from './LocalWorld';

describe('ownedObject', (): void => {
  let world: LocalWorld;
  let alice: string;
  let bob: string;

  beforeEach(async(): Promise<void> => {
    world = new LocalWorld();
    alice = await world.addActor('alice');
    bob = await world.addActor('bob');
  });

  it('gives the stored object to its author', async(): Promise<void> => {
    const note = await world.addNote('n1', alice, [ `${AS}#Public` ]);
    const stored = await ownedObject(world.graphs.store(), note, alice, 'delete');
    expect(stored.data.some((entry): boolean => entry.subject.value === note && entry.object.value === alice)).toBe(true);
  });

  it('answers 403 not_owner, naming the verb, to anyone else', async(): Promise<void> => {
    const note = await world.addNote('n1', alice, []);
    await expect(ownedObject(world.graphs.store(), note, bob, 'pin'))
      .rejects.toMatchObject({ statusCode: 403, errorCode: 'not_owner', message: 'Only the object\'s owner can pin it.' });
  });

  it('answers 403 for an object without an author', async(): Promise<void> => {
    const iri = `${BASE}objects/anonymous`;
    world.graphs.put(iri, await world.parser.toQuads({ '@context': AS, id: iri, type: 'Note', content: 'x' }, iri));
    await expect(ownedObject(world.graphs.store(), iri, alice, 'update')).rejects.toMatchObject({ statusCode: 403 });
  });

  it('answers 404 for an object not stored here', async(): Promise<void> => {
    await expect(ownedObject(world.graphs.store(), `${BASE}objects/none`, alice, 'delete'))
      .rejects.toMatchObject({ statusCode: 404, message: `No object ${BASE}objects/none on this server.` });
  });
});
