import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import type { ActivityRepository } from '../../../../../src/plugins/activitypub/ActivityRepository';
import { FollowAnswerReceivedEffect } from '../../../../../src/plugins/activitypub/inbound/FollowAnswerReceivedEffect';
import { MemoryCollections } from './MemoryCollections';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;
const CAROL = 'https://remote.example/users/carol';
const FOLLOW = { id: `${BASE}activities/f1`, type: 'Follow', actor: ALICE, object: CAROL };

describe('FollowAnswerReceivedEffect', (): void => {
  let collections: MemoryCollections;
  let effect: FollowAnswerReceivedEffect;
  const stored = new Map<string, Json>([ [ FOLLOW.id, FOLLOW ], [ `${BASE}activities/like`, { id: `${BASE}activities/like`, type: 'Like', actor: ALICE, object: CAROL } ] ]);
  const activities = { read: async(iri: string): Promise<Json | undefined> => stored.get(iri) } as unknown as ActivityRepository;

  beforeEach((): void => {
    collections = new MemoryCollections();
    effect = new FollowAnswerReceivedEffect(BASE, activities, collections.store());
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

  it('removes it on Reject of the embedded Follow, and a Reject by anyone else removes nothing', async(): Promise<void> => {
    await collections.store().add(`${ALICE}/following`, CAROL);
    const mallory = 'https://evil.example/u/m';
    await effect.apply({ activity: { type: 'Reject', actor: mallory, object: FOLLOW }, sender: mallory, now: new Date() });
    expect(collections.of(`${ALICE}/following`)).toEqual([ CAROL ]);
    await effect.apply({ activity: { type: 'Reject', actor: CAROL, object: FOLLOW }, sender: CAROL, now: new Date() });
    expect(collections.of(`${ALICE}/following`)).toEqual([]);
  });

  it('ignores an answer to a Follow by another server\'s actor, or to nothing it can find', async(): Promise<void> => {
    await effect.apply({ activity: { type: 'Accept', actor: CAROL, object: { type: 'Follow', actor: 'https://third.example/users/dan',
      object: CAROL }}, sender: CAROL, now: new Date() });
    await effect.apply({ activity: { type: 'Accept', actor: CAROL, object: `${BASE}activities/missing` }, sender: CAROL, now: new Date() });
    await effect.apply({ activity: { type: 'Accept', actor: CAROL }, sender: CAROL, now: new Date() });
    expect(collections.items.size).toBe(0);
  });
});
