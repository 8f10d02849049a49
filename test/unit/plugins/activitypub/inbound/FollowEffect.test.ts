import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import { FollowEffect } from '../../../../../src/plugins/activitypub/inbound/FollowEffect';
import type { OutboxService } from '../../../../../src/plugins/activitypub/OutboxService';

const BASE = 'https://pod.example/';
const CAROL = 'https://remote.example/users/carol';

describe('FollowEffect', (): void => {
  const posted: [string, Json][] = [];
  const outbox = { post: async(username: string, body: Json): Promise<unknown> => posted.push([ username, body ]) } as unknown as OutboxService;
  const effect = new FollowEffect(BASE, outbox);

  beforeEach((): void => {
    posted.length = 0;
  });

  it('answers a Follow of a local actor with that actor\'s Accept, to the follower', async(): Promise<void> => {
    const follow = { id: 'https://remote.example/follows/1', type: 'Follow', actor: CAROL, object: `${BASE}actors/alice` };
    await effect.apply({ activity: follow, sender: CAROL, now: new Date() });
    expect(posted).toEqual([ [ 'alice', { type: 'Accept', object: follow.id, to: [ CAROL ]} ] ]);
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
