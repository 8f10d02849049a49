import { FlagReceivedEffect } from '../../../../../src/plugins/activitypub/inbound/FlagReceivedEffect';
import { MemoryCollections } from './MemoryCollections';

const BASE = 'https://pod.example/';
const REPORTER = 'https://remote.example/actor';

describe('FlagReceivedEffect', (): void => {
  it('keeps a report in the instance actor\'s inbox for the operator, not in the reported actor\'s', async(): Promise<void> => {
    const collections = new MemoryCollections();
    const flag = { id: 'https://remote.example/reports/1', type: 'Flag', actor: REPORTER,
      object: [ `${BASE}actors/alice`, `${BASE}objects/n1` ], content: 'spam\nforged line' };
    await new FlagReceivedEffect(BASE, collections.store()).apply({ activity: flag, sender: REPORTER, now: new Date() });
    expect(collections.of(`${BASE}actors/instance/inbox`)).toEqual([ flag.id ]);
    expect(collections.of(`${BASE}actors/alice/inbox`)).toEqual([]);
  });
});
