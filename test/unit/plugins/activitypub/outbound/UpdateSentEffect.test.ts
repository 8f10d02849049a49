import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import { UpdateSentEffect } from '../../../../../src/plugins/activitypub/outbound/UpdateSentEffect';
import { AS, BASE, LocalWorld, PUBLIC } from './LocalWorld';

describe('UpdateSentEffect', (): void => {
  let world: LocalWorld;
  let effect: UpdateSentEffect;
  let alice: string;
  let bob: string;

  beforeEach(async(): Promise<void> => {
    world = new LocalWorld();
    effect = new UpdateSentEffect(BASE, world.graphs.store(), world.parser, world.profiles);
    alice = await world.addActor('alice');
    bob = await world.addActor('bob');
  });

  async function update(actor: string, object: unknown, extra: Json = {}): Promise<Json> {
    const activity: Json = { '@context': AS, type: 'Update', object, ...extra };
    await effect.apply({ activity, username: world.urls.usernameOf(actor)!, actor, now: new Date('2026-02-01T00:00:00Z') });
    return activity;
  }

  it('replaces an own object, keeping its id and author and setting updated', async(): Promise<void> => {
    const note = await world.addNote('n1', alice, [ PUBLIC ]);
    const activity = await update(alice, { id: note, type: 'Note', content: 'edited', attributedTo: bob });
    expect(activity.object).toMatchObject({ id: note, content: 'edited', attributedTo: alice, updated: '2026-02-01T00:00:00.000Z' });
    const stored = world.graphs.resources.get(note)!.data.map((entry): string => entry.object.value);
    expect(stored).toContain('edited');
    expect(stored).not.toContain(bob);
  });

  it('sends an unaddressed edit to whoever received the post, the mentioned and the replied-to, keeping its audience', async(): Promise<void> => {
    const parent = await world.addNote('p1', 'https://remote.example/users/dan', [ PUBLIC ]);
    const note = `${BASE}objects/n3`;
    world.graphs.put(note, await world.parser.toQuads({ '@context': AS, id: note, type: 'Note', content: 'hi', attributedTo: alice,
      inReplyTo: parent, to: [ bob ], bcc: [ 'https://remote.example/users/eve' ],
      tag: [{ type: 'Mention', href: 'https://remote.example/users/carol' }]}, note));
    const activity = await update(alice, { id: note, type: 'Note', content: 'edited' });
    expect(activity).toMatchObject({ to: [ bob ], bcc: [ 'https://remote.example/users/eve' ],
      cc: [ 'https://remote.example/users/carol', 'https://remote.example/users/dan' ]});
    // The stored object keeps its own addressing, not the mentions the Update adds.
    expect(activity.object).toMatchObject({ to: [ bob ], bcc: [ 'https://remote.example/users/eve' ]});
    expect((activity.object as Json).cc).toBeUndefined();
    const addressed = await update(alice, { id: note, type: 'Note', content: 'again' }, { to: [ PUBLIC ]});
    expect(addressed.to).toEqual([ PUBLIC ]);
    expect(addressed.cc).toBeUndefined();
  });

  it('refuses another actor\'s object with 403 and an unknown one with 404', async(): Promise<void> => {
    const note = await world.addNote('n2', bob, [ PUBLIC ]);
    await expect(update(alice, { id: note, type: 'Note', content: 'mine now' })).rejects.toMatchObject({ statusCode: 403 });
    await expect(update(alice, { id: `${BASE}objects/none`, type: 'Note' })).rejects.toMatchObject({ statusCode: 404 });
    await expect(update(alice, note)).rejects.toMatchObject({ statusCode: 400, errorCode: 'invalid_activity' });
  });

  it('changes the editable keys of the actor\'s profile and addresses followers and Public', async(): Promise<void> => {
    const activity = await update(alice, { id: alice, name: 'Alice A.', alsoKnownAs: [ 'https://old.example/users/alice' ],
      discoverable: true });
    expect(activity).toMatchObject({ to: [ PUBLIC ], cc: [ `${alice}/followers` ],
      object: { id: alice, name: 'Alice A.', alsoKnownAs: 'https://old.example/users/alice', discoverable: true,
        publicKey: { publicKeyPem: 'PEM' }}});
    expect(await world.profiles.read(alice)).toMatchObject({ name: 'Alice A.' });
  });

  it('keeps the addressing an actor gives its profile Update', async(): Promise<void> => {
    const activity = await update(alice, { id: alice, name: 'A' }, { to: [ bob ]});
    expect(activity.to).toEqual([ bob ]);
    expect(activity.cc).toBeUndefined();
  });

  it('accepts unchanged server-owned keys and refuses changed ones with 400, changing nothing', async(): Promise<void> => {
    const read = (await world.profiles.read(alice))!;
    await update(alice, { ...read, name: 'Same keys' });
    const before = world.graphs.resources.get(alice)!.data;
    for (const [ key, value ] of [[ 'inbox', 'https://evil.example/inbox' ], [ 'preferredUsername', 'root' ],
      [ 'publicKey', { id: `${alice}#main-key`, owner: alice, publicKeyPem: 'OTHER' }], [ 'type', 'Service' ]] as const) {
      await expect(update(alice, { id: alice, [key]: value })).rejects.toMatchObject({ statusCode: 400, errorCode: 'not_editable' });
    }
    expect(world.graphs.resources.get(alice)!.data).toEqual(before);
  });

  it('clears an editable key given as null or []', async(): Promise<void> => {
    await update(alice, { id: alice, summary: 'about me', alsoKnownAs: [ 'https://old.example/users/alice' ]});
    await update(alice, { id: alice, summary: null, alsoKnownAs: []});
    const profile = (await world.profiles.read(alice))!;
    expect(profile.summary).toBeUndefined();
    expect(profile.alsoKnownAs).toBeUndefined();
  });
});
