import { BlockSentEffect } from '../../../../../src/plugins/activitypub/outbound/BlockSentEffect';
import { MemoryCollections } from '../inbound/MemoryCollections';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;
const CAROL = 'https://remote.example/users/carol';

describe('BlockSentEffect', (): void => {
  let collections: MemoryCollections;
  let effect: BlockSentEffect;

  beforeEach(async(): Promise<void> => {
    collections = new MemoryCollections();
    effect = new BlockSentEffect(BASE, collections.store());
    await collections.store().add(`${ALICE}/followers`, CAROL);
    await collections.store().add(`${ALICE}/following`, CAROL);
  });

  it('adds the blocked actor to the block list, ends the follows both ways and addresses the Block to it', async(): Promise<void> => {
    const activity: Record<string, unknown> = { type: 'Block', object: CAROL };
    await effect.apply({ activity, username: 'alice', actor: ALICE, now: new Date() });
    expect(collections.of(`${ALICE}/blocked`)).toEqual([ CAROL ]);
    expect(collections.of(`${ALICE}/followers`)).toEqual([]);
    expect(collections.of(`${ALICE}/following`)).toEqual([]);
    expect(activity.to).toEqual([ CAROL ]);
  });

  it('refuses a Block of oneself with 400, changing nothing', async(): Promise<void> => {
    await expect(effect.apply({ activity: { type: 'Block', object: ALICE }, username: 'alice', actor: ALICE, now: new Date() }))
      .rejects.toMatchObject({ statusCode: 400, errorCode: 'invalid_activity' });
    expect(collections.of(`${ALICE}/blocked`)).toEqual([]);
  });
});
