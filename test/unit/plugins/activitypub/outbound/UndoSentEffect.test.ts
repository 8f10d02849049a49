import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import type { ActivityRepository } from '../../../../../src/plugins/activitypub/ActivityRepository';
import { UndoSentEffect } from '../../../../../src/plugins/activitypub/outbound/UndoSentEffect';
import { MemoryCollections } from '../inbound/MemoryCollections';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;
const CAROL = 'https://remote.example/users/carol';
const NOTE = 'https://remote.example/notes/1';
const SENT: Record<string, Json> = {
  [`${BASE}activities/follow`]: { id: `${BASE}activities/follow`, type: 'Follow', actor: ALICE, object: CAROL },
  [`${BASE}activities/like`]: { id: `${BASE}activities/like`, type: 'Like', actor: ALICE, object: NOTE },
  [`${BASE}activities/block`]: { id: `${BASE}activities/block`, type: 'Block', actor: ALICE, object: CAROL },
  [`${BASE}activities/bobs`]: { id: `${BASE}activities/bobs`, type: 'Like', actor: `${BASE}actors/bob`, object: NOTE },
};

describe('UndoSentEffect', (): void => {
  let collections: MemoryCollections;
  let effect: UndoSentEffect;

  beforeEach(async(): Promise<void> => {
    collections = new MemoryCollections();
    const store = collections.store();
    await store.add(`${ALICE}/following`, CAROL);
    await store.add(`${ALICE}/liked`, NOTE);
    await store.add(`${ALICE}/blocked`, CAROL);
    // Stand-in for the store-backed repository: activities as read back.
    const activities = { read: async(iri: string): Promise<Json | undefined> => SENT[iri] } as unknown as ActivityRepository;
    effect = new UndoSentEffect(BASE, activities, store);
  });

  it.each([
    [ 'follow', 'following', [ CAROL ]],
    [ 'like', 'liked', undefined ],
    [ 'block', 'blocked', [ CAROL ]],
  ])('takes back a %s from %s, embedding it', async(name, collection, to): Promise<void> => {
    const activity: Json = { type: 'Undo', object: `${BASE}activities/${name}` };
    await effect.apply({ activity, username: 'alice', actor: ALICE, now: new Date() });
    expect(collections.of(`${ALICE}/${collection}`)).toEqual([]);
    expect(activity.object).toEqual(SENT[`${BASE}activities/${name}`]);
    expect(activity.to).toEqual(to);
  });

  it('refuses to undo another actor\'s activity, or an unknown one, with 403', async(): Promise<void> => {
    for (const object of [ `${BASE}activities/bobs`, `${BASE}activities/none` ]) {
      await expect(effect.apply({ activity: { type: 'Undo', object }, username: 'alice', actor: ALICE, now: new Date() }))
        .rejects.toMatchObject({ statusCode: 403, errorCode: 'not_owner' });
    }
    expect(collections.of(`${ALICE}/liked`)).toEqual([ NOTE ]);
  });
});
