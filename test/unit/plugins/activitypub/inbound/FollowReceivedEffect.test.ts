import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import { ActorProfiles } from '../../../../../src/plugins/activitypub/ActorProfiles';
import { FollowReceivedEffect } from '../../../../../src/plugins/activitypub/inbound/FollowReceivedEffect';
import type { OutboxService } from '../../../../../src/plugins/activitypub/outbound/OutboxService';
import { MemoryCollections } from './MemoryCollections';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;
const CAROL = 'https://remote.example/users/carol';
const MANUALLY_APPROVES = 'https://www.w3.org/ns/activitystreams#manuallyApprovesFollowers';

describe('FollowReceivedEffect', (): void => {
  const posted: [string, Json][] = [];
  const outbox = { post: async(username: string, body: Json): Promise<unknown> => posted.push([ username, body ]) } as unknown as OutboxService;
  let collections: MemoryCollections;
  let approvesManually: boolean | string;
  let effect: FollowReceivedEffect;
  const follow = { id: 'https://remote.example/follows/1', type: 'Follow', actor: CAROL, object: ALICE };

  beforeEach((): void => {
    posted.length = 0;
    collections = new MemoryCollections();
    approvesManually = false;
    // Stand-in for the store-backed profiles: only the one property the effect reads.
    const profiles = { values: async(actor: string, property: string): Promise<string[]> =>
      actor === ALICE && property === MANUALLY_APPROVES ? [ String(approvesManually) ] : [],
    isTrue: ActorProfiles.prototype.isTrue } as unknown as ActorProfiles;
    effect = new FollowReceivedEffect(BASE, outbox, collections.store(), profiles);
  });

  it('answers a Follow of a local actor with that actor\'s Accept, to the follower', async(): Promise<void> => {
    await effect.apply({ activity: follow, sender: CAROL, now: new Date() });
    expect(posted).toEqual([ [ 'alice', { type: 'Accept', object: follow.id, to: [ CAROL ]} ] ]);
  });

  it('leaves the Follow for the owner to answer when the actor approves followers manually', async(): Promise<void> => {
    approvesManually = true;
    await effect.apply({ activity: follow, sender: CAROL, now: new Date() });
    expect(posted).toEqual([]);
  });

  it('takes the flag as Virtuoso answers a true boolean, "1"', async(): Promise<void> => {
    approvesManually = '1';
    await effect.apply({ activity: follow, sender: CAROL, now: new Date() });
    expect(posted).toEqual([]);
  });

  it('rejects a Follow from an actor the local actor blocked', async(): Promise<void> => {
    await collections.store().add(`${ALICE}/blocked`, CAROL);
    await effect.apply({ activity: follow, sender: CAROL, now: new Date() });
    expect(posted).toEqual([ [ 'alice', { type: 'Reject', object: follow.id, to: [ CAROL ]} ] ]);
  });

  it('does nothing for a Follow of someone elsewhere', async(): Promise<void> => {
    await effect.apply({ activity: { id: 'https://remote.example/follows/2', type: 'Follow', actor: CAROL,
      object: 'https://third.example/users/dan' }, sender: CAROL, now: new Date() });
    expect(posted).toEqual([]);
  });

  it('handles Follow only', (): void => {
    expect(effect.types).toEqual([ 'Follow' ]);
  });
});
