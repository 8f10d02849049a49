import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import type { ActivityRepository } from '../../../../../src/plugins/activitypub/ActivityRepository';
import { FollowAnswerSentEffect } from '../../../../../src/plugins/activitypub/outbound/FollowAnswerSentEffect';
import { MemoryCollections } from '../inbound/MemoryCollections';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;
const CAROL = 'https://remote.example/users/carol';
const FOLLOW = { id: 'https://remote.example/follows/1', type: 'Follow', actor: CAROL, object: ALICE };

describe('FollowAnswerSentEffect', (): void => {
  let collections: MemoryCollections;
  let effect: FollowAnswerSentEffect;

  beforeEach((): void => {
    collections = new MemoryCollections();
    // Stand-in for the store-backed repository: the one Follow alice received, and a Like.
    const activities = { read: async(iri: string): Promise<Json | undefined> => ({
      [FOLLOW.id]: FOLLOW,
      'https://remote.example/likes/1': { id: 'https://remote.example/likes/1', type: 'Like', actor: CAROL, object: ALICE },
    })[iri] } as unknown as ActivityRepository;
    effect = new FollowAnswerSentEffect(BASE, activities, collections.store());
  });

  it('Accept adds the follower, embeds the Follow and addresses the follower', async(): Promise<void> => {
    const activity: Json = { type: 'Accept', object: FOLLOW.id };
    await effect.apply({ activity, username: 'alice', actor: ALICE, now: new Date() });
    expect(collections.of(`${ALICE}/followers`)).toEqual([ CAROL ]);
    expect(activity).toMatchObject({ object: FOLLOW, to: [ CAROL ]});
  });

  it('Reject removes the follower', async(): Promise<void> => {
    await collections.store().add(`${ALICE}/followers`, CAROL);
    await effect.apply({ activity: { type: 'Reject', object: FOLLOW.id }, username: 'alice', actor: ALICE, now: new Date() });
    expect(collections.of(`${ALICE}/followers`)).toEqual([]);
  });

  it.each([
    [ 'an unknown activity', 'https://remote.example/follows/unknown', 'alice' ],
    [ 'something other than a Follow', 'https://remote.example/likes/1', 'alice' ],
    [ 'a Follow of someone else', FOLLOW.id, 'bob' ],
  ])('refuses to answer %s with 400', async(what, object, username): Promise<void> => {
    await expect(effect.apply({ activity: { type: 'Accept', object }, username, actor: `${BASE}actors/${username}`,
      now: new Date() })).rejects.toMatchObject({ statusCode: 400, errorCode: 'invalid_activity' });
    expect(collections.items.size).toBe(0);
  });
});
