import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import { ActivityRepository } from '../../../../../src/plugins/activitypub/ActivityRepository';
import { ActivityStreamsSerializer } from '../../../../../src/plugins/activitypub/ActivityStreamsSerializer';
import { QuestionVoteReceivedEffect } from '../../../../../src/plugins/activitypub/inbound/QuestionVoteReceivedEffect';
import { AS, BASE, LocalWorld } from '../outbound/LocalWorld';

const ALICE = `${BASE}actors/alice`;
const POLL = `${BASE}objects/poll`;
const CAROL = 'https://remote.example/users/carol';
const DAN = 'https://remote.example/users/dan';

describe('QuestionVoteReceivedEffect', (): void => {
  let world: LocalWorld;
  let effect: QuestionVoteReceivedEffect;
  let activities: ActivityRepository;

  async function addPoll(choices: 'oneOf' | 'anyOf', extra: Json = {}): Promise<void> {
    world.graphs.put(POLL, await world.parser.toQuads({ '@context': AS, id: POLL, type: 'Question', attributedTo: ALICE,
      content: 'Tea or coffee?', [choices]: [ { type: 'Note', name: 'tea' }, { type: 'Note', name: 'coffee' } ], ...extra }, POLL));
  }

  function vote(voter: string, name: string, n = 1): Json {
    return { id: `${voter}/votes/${name}/${n}`, type: 'Create', actor: voter, to: [ ALICE ],
      object: { id: `${voter}/notes/${name}/${n}`, type: 'Note', name, attributedTo: voter, inReplyTo: POLL, to: [ ALICE ] } };
  }

  async function cast(voter: string, name: string): Promise<void> {
    const activity = vote(voter, name);
    expect(effect.appliesTo(activity)).toBe(true);
    await effect.apply({ activity, sender: voter, now: new Date('2026-03-01T00:00:00Z') });
  }

  async function tally(): Promise<Json> {
    return (await activities.read(POLL))!;
  }

  /** Each option's count, by name (the options are a set, in no order). */
  const totals = (poll: Json, key: string): Record<string, unknown> => Object.fromEntries(
    (poll[key] as Json[]).map((option): [string, unknown] => [ String(option.name), (option.replies as Json | undefined)?.totalItems ]));

  beforeEach((): void => {
    world = new LocalWorld();
    activities = new ActivityRepository(world.graphs.store(), world.parser, new ActivityStreamsSerializer(world.loader));
    effect = new QuestionVoteReceivedEffect(BASE, activities, world.graphs.store(), world.parser, world.collections.store());
  });

  it('applies to named replies without content to this server\'s objects only', (): void => {
    expect(effect.appliesTo(vote(CAROL, 'tea'))).toBe(true);
    const reply = vote(CAROL, 'tea');
    (reply.object as Json).content = 'I like tea';
    expect(effect.appliesTo(reply)).toBe(false);
    const elsewhere = vote(CAROL, 'tea');
    (elsewhere.object as Json).inReplyTo = 'https://remote.example/polls/1';
    expect(effect.appliesTo(elsewhere)).toBe(false);
    expect(effect.appliesTo({ type: 'Create', object: { type: 'Note', content: 'hi' } })).toBe(false);
  });

  it('sends an Update of the poll with its counts to the remote voters only, as blind copies', async(): Promise<void> => {
    const scheduled: { activity: Json; sender: string; recipients: string[] }[] = [];
    effect = new QuestionVoteReceivedEffect(BASE, activities, world.graphs.store(), world.parser, world.collections.store(), undefined,
      { schedule: async(activity, sender, recipients): Promise<void> => {
        scheduled.push({ activity, sender, recipients });
      } });
    await addPoll('oneOf', { to: [ 'https://www.w3.org/ns/activitystreams#Public' ]});
    await cast(`${BASE}actors/bob`, 'tea');
    expect(scheduled).toEqual([]);
    await cast(CAROL, 'coffee');
    await cast(DAN, 'tea');
    expect(scheduled).toHaveLength(2);
    expect(scheduled[1]).toMatchObject({ sender: 'alice', recipients: [ CAROL, DAN ], activity: { type: 'Update', actor: ALICE,
      object: POLL, bcc: [ CAROL, DAN ], to: 'https://www.w3.org/ns/activitystreams#Public' }});
    expect(world.graphs.resources.has(scheduled[1].activity.id as string)).toBe(true);
  });

  it('counts votes per option and voters, once per voter however often delivered', async(): Promise<void> => {
    await addPoll('oneOf');
    await cast(CAROL, 'tea');
    await cast(CAROL, 'tea');
    // The options are a set: a store may give them back in another order.
    world.graphs.resources.get(POLL)!.data.reverse();
    await cast(DAN, 'coffee');
    const poll = await tally();
    expect(totals(poll, 'oneOf')).toEqual({ tea: 1, coffee: 1 });
    expect(poll.votersCount).toBe(2);
    expect(poll.content).toBe('Tea or coffee?');
  });

  it('refuses a second choice in a single-choice poll, and takes several in a multiple-choice one', async(): Promise<void> => {
    await addPoll('oneOf');
    await cast(CAROL, 'tea');
    await expect(cast(CAROL, 'coffee')).rejects.toThrow('one option per voter');
    expect(totals(await tally(), 'oneOf')).toEqual({ tea: 1, coffee: 0 });

    world = new LocalWorld();
    activities = new ActivityRepository(world.graphs.store(), world.parser, new ActivityStreamsSerializer(world.loader));
    effect = new QuestionVoteReceivedEffect(BASE, activities, world.graphs.store(), world.parser, world.collections.store());
    await addPoll('anyOf');
    await cast(CAROL, 'tea');
    await cast(CAROL, 'coffee');
    const poll = await tally();
    expect(totals(poll, 'anyOf')).toEqual({ tea: 1, coffee: 1 });
    expect(poll.votersCount).toBe(1);
  });

  it.each([
    [ 'an option the poll does not have', {}, 'juice', 'no option' ],
    [ 'a poll past its endTime', { endTime: '2026-02-01T00:00:00Z' }, 'tea', 'closed' ],
    [ 'a closed poll', { closed: '2026-02-01T00:00:00Z' }, 'tea', 'closed' ],
  ])('refuses a vote for %s, counting nothing', async(what, extra, choice, reason): Promise<void> => {
    await addPoll('oneOf', extra);
    await expect(cast(CAROL, choice)).rejects.toThrow(reason);
    expect(world.collections.items.size).toBe(0);
  });

  it('counts nothing for a named reply to something that is not a poll', async(): Promise<void> => {
    await world.addNote('poll', ALICE, []);
    await cast(CAROL, 'tea');
    expect(world.collections.items.size).toBe(0);
  });
});
