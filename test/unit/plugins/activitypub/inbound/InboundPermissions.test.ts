import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import type { GroupModerators } from '../../../../../src/plugins/activitypub/fetch/GroupModerators';
import { InboundPermissions } from '../../../../../src/plugins/activitypub/inbound/InboundPermissions';
import { AS, BASE, LocalWorld } from '../outbound/LocalWorld';

const REMOTE = 'https://remote.example';
const CAROL = `${REMOTE}/users/carol`;
const GROUP = 'https://lemmy.example/c/main';
const MOD = 'https://lemmy.example/u/mod';

describe('InboundPermissions', (): void => {
  let world: LocalWorld;
  let permissions: InboundPermissions;
  const comment = `${REMOTE}/comments/1`;

  beforeEach(async(): Promise<void> => {
    world = new LocalWorld();
    // Stand-in for the fetching GroupModerators (tested on its own): one Group with one moderator.
    const moderators = { isModerator: async(group: string, actor: string): Promise<boolean> => group === GROUP && actor === MOD } as
      unknown as GroupModerators;
    permissions = new InboundPermissions(BASE, world.graphs.store(), moderators);
    world.graphs.put(comment, await world.parser.toQuads({ '@context': AS, id: comment, type: 'Note', attributedTo: CAROL,
      audience: GROUP, to: [ `${AS}#Public` ] }, comment));
  });

  const activity = (type: string, actor: string, object: unknown): Json => ({ id: `${actor}/activities/1`, type, actor, object });

  it('lets anyone send what changes nothing of others\' (Follow, Like)', async(): Promise<void> => {
    expect(await permissions.mayApply(activity('Like', CAROL, `${BASE}objects/n1`), CAROL)).toBe(true);
  });

  it('keeps a Create of its sender\'s server only, authors included', async(): Promise<void> => {
    const note = (attributedTo: unknown): Json => activity('Create', CAROL, { id: `${REMOTE}/notes/2`, type: 'Note', attributedTo });
    expect(await permissions.mayApply(note([ CAROL, `${REMOTE}/channels/1` ]), CAROL)).toBe(true);
    expect(await permissions.mayApply(note([ CAROL, 'https://other.example/users/x' ]), CAROL)).toBe(false);
    expect(await permissions.mayApply(activity('Create', CAROL, { id: 'https://other.example/notes/2', type: 'Note' }), CAROL))
      .toBe(false);
  });

  it('never lets another server create, update or delete this server\'s objects', async(): Promise<void> => {
    for (const type of [ 'Create', 'Update', 'Delete' ]) {
      expect(await permissions.mayApply(activity(type, CAROL, `${BASE}objects/n1`), CAROL)).toBe(false);
    }
  });

  it('lets the author update or delete a stored object, and others not', async(): Promise<void> => {
    expect(await permissions.mayApply(activity('Delete', CAROL, comment), CAROL)).toBe(true);
    expect(await permissions.mayApply(activity('Delete', `${REMOTE}/users/dan`, comment), `${REMOTE}/users/dan`)).toBe(false);
  });

  it('lets a Group\'s moderator delete what was posted to the Group, when the Group announces it', async(): Promise<void> => {
    expect(await permissions.mayApply(activity('Delete', MOD, comment), MOD, GROUP)).toBe(true);
    expect(await permissions.mayApply(activity('Delete', MOD, comment), MOD)).toBe(false);
    expect(await permissions.mayApply(activity('Delete', MOD, comment), MOD, 'https://lemmy.example/c/other')).toBe(false);
    const elsewhere = `${REMOTE}/comments/2`;
    world.graphs.put(elsewhere, await world.parser.toQuads({ '@context': AS, id: elsewhere, type: 'Note', attributedTo: CAROL },
      elsewhere));
    expect(await permissions.mayApply(activity('Delete', MOD, elsewhere), MOD, GROUP)).toBe(false);
  });
});
