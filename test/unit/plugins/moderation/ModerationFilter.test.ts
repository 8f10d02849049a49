import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountModerations } from '../../../../src/plugins/moderation/AccountModerations';
import { DomainBlocks } from '../../../../src/plugins/moderation/DomainBlocks';
import { ModerationFilter } from '../../../../src/plugins/moderation/ModerationFilter';
import { Mutes } from '../../../../src/plugins/moderation/Mutes';

const EVE = 'https://remote.example/users/eve';
const DAN = 'http://localhost/actors/dan';

describe('ModerationFilter', () => {
  let dir: string;
  let accounts: AccountModerations;
  let mutes: Mutes;
  let filter: ModerationFilter;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'moderation-filter-'));
    accounts = new AccountModerations(dir);
    mutes = new Mutes(dir);
    filter = new ModerationFilter(new DomainBlocks(dir), mutes, accounts);
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('hides a suspended account everywhere, a silenced one from public timelines only', async() => {
    await accounts.set(EVE, 'suspended', true);
    await accounts.set(DAN, 'silenced', true);
    expect(await filter.hides(EVE, { username: 'rita' }, 'home')).toBe(true);
    expect(await filter.hides(DAN, { username: 'rita' }, 'public')).toBe(true);
    expect(await filter.hides(DAN, { username: 'rita' }, 'home')).toBe(false);
  });

  it('hides the notifications of suspended accounts and of mutes that cover them', async() => {
    expect(await filter.hidesNotificationsFrom(EVE, 'rita')).toBe(false);
    await accounts.set(EVE, 'suspended', true);
    expect(await filter.hidesNotificationsFrom(EVE, 'rita')).toBe(true);
    await mutes.mute('rita', DAN, false);
    expect(await filter.hidesNotificationsFrom(DAN, 'rita')).toBe(false);
    await mutes.mute('rita', DAN, true);
    expect(await filter.hidesNotificationsFrom(DAN, 'rita')).toBe(true);
    expect(await filter.hidesNotificationsFrom(DAN, 'sam')).toBe(false);
  });

  it('marks the posts of sensitive accounts', async() => {
    await accounts.set(DAN, 'sensitive', true);
    expect(await filter.marksSensitive(DAN)).toBe(true);
    expect(await filter.marksSensitive(EVE)).toBe(false);
    expect(await new ModerationFilter(new DomainBlocks(dir)).marksSensitive(DAN)).toBe(false);
  });

  it('leaves out the media of a domain blocked with reject_media, and only those', async() => {
    const blocks = new DomainBlocks(dir);
    const withBlocks = new ModerationFilter(blocks, mutes, accounts);
    expect(await withBlocks.rejectsMedia(EVE)).toBe(false);
    await blocks.put({ domain: 'remote.example', severity: 'noop', rejectMedia: true });
    expect(await withBlocks.rejectsMedia(EVE)).toBe(true);
    expect(await withBlocks.rejectsMedia(DAN)).toBe(false);
    // Noted, not silenced: its posts are still shown, without their media.
    expect(await withBlocks.hides(EVE, { username: 'rita' }, 'public')).toBe(false);
  });
});
