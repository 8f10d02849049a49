import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import type { ActivityRepository } from '../../../../../src/plugins/activitypub/ActivityRepository';
import { FollowAnswerEffect } from '../../../../../src/plugins/activitypub/inbound/FollowAnswerEffect';
import { MemoryCollections } from './MemoryCollections';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;
const CAROL = 'https://remote.example/users/carol';
const FOLLOW = { id: `${BASE}activities/f1`, type: 'Follow', actor: ALICE, object: CAROL };

describe('FollowAnswerEffect', (): void => {
  let collections: MemoryCollections;
  let effect: FollowAnswerEffect;
  const stored = new Map<string, Json>([ [ FOLLOW.id, FOLLOW ], [ `${BASE}activities/like`, { id: `${BASE}activities/like`, type: 'Like', actor: ALICE, object: CAROL } ] ]);
  const activities = { read: async(iri: string): Promise<Json | undefined> => stored.get(iri) } as unknown as ActivityRepository;

  beforeEach((): void => {
    collections = new MemoryCollections();
    effect = new FollowAnswerEffect(BASE, activities, collections.store());
  });

  it('adds the followed actor to the follower\'s following on Accept, whether the Follow is embedded or stored', async(): Promise<void> => {
    await effect.apply({ activity: { type: 'Accept', actor: CAROL, object: FOLLOW.id }, sender: CAROL, now: new Date() });
    expect(collections.of(`${ALICE}/following`)).toEqual([ CAROL ]);
    collections.items.clear();
    await effect.apply({ activity: { type: 'Accept', actor: CAROL, object: FOLLOW }, sender: CAROL, now: new Date() });
    expect(collections.of(`${ALICE}/following`)).toEqual([ CAROL ]);
  });

  it('removes it on Reject', async(): Promise<void> => {
    await collections.store().add(`${ALICE}/following`, CAROL);
    await effect.apply({ activity: { type: 'Reject', actor: CAROL, object: FOLLOW.id }, sender: CAROL, now: new Date() });
    expect(collections.of(`${ALICE}/following`)).toEqual([]);
  });

  it('ignores an answer by anyone but the followed actor, and answers to what is no Follow', async(): Promise<void> => {
    await effect.apply({ activity: { type: 'Accept', actor: 'https://evil.example/u/x', object: FOLLOW.id },
      sender: 'https://evil.example/u/x', now: new Date() });
    await effect.apply({ activity: { type: 'Accept', actor: CAROL, object: `${BASE}activities/like` }, sender: CAROL, now: new Date() });
    expect(collections.items.size).toBe(0);
  });
});
