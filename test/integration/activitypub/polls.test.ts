/**
 * Polls: a local actor's Question counts the votes that arrive, from local actors through the
 * delivery queue and from another server through the signed inbox, as Mastodon sends them.
 */
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { signingHabitOf, startFediverseWorld, type FediverseWorld } from '../../support/fediverse-world';
import { postToOutbox, readJson, signup, type Session } from '../../support/local-actors';

type Json = Record<string, unknown>;
const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

describe('polls', () => {
  let server: FedpodServer;
  let world: FediverseWorld;
  let alice: Session;
  let bob: Session;

  beforeAll(async() => {
    world = await startFediverseWorld();
    server = await startFedpod({ config: 'activitypub', allowPrivateNetwork: true });
    alice = await signup(server.baseUrl, 'alice');
    bob = await signup(server.baseUrl, 'bob');
  });

  afterAll(async() => {
    await server?.stop();
    await world?.close();
  });

  /** Each option's count and the voters, as anyone reads the poll. */
  async function tally(poll: string): Promise<{ counts: Record<string, unknown>; voters: unknown }> {
    const { body } = await readJson(poll);
    const options = (Array.isArray(body.oneOf) ? body.oneOf : [ body.oneOf ]) as Json[];
    return { counts: Object.fromEntries(options.map((option) => [ option.name, (option.replies as Json | undefined)?.totalItems ?? 0 ])),
      voters: body.votersCount ?? 0 };
  }

  it('counts a local vote and a remote one, each once', async() => {
    const { status, body } = await postToOutbox(alice, { type: 'Question', content: 'Tea or coffee?', to: [ PUBLIC ],
      oneOf: [ { type: 'Note', name: 'tea' }, { type: 'Note', name: 'coffee' } ], endTime: '2099-01-01T00:00:00Z' });
    expect(status).toBe(201);
    const poll = (body.object as { id: string }).id;
    expect(await tally(poll)).toEqual({ counts: { tea: 0, coffee: 0 }, voters: 0 });

    expect((await postToOutbox(bob, { type: 'Note', name: 'tea', inReplyTo: poll, to: [ alice.webId ]})).status).toBe(201);
    await eventually(async() => (await tally(poll)).voters === 1);
    expect((await tally(poll)).counts).toEqual({ tea: 1, coffee: 0 });

    const inbox = `${alice.webId}/inbox`;
    const deliverVote = async(name: string, choice: string): Promise<void> => {
      const voter = `${world.origin}/h/mastodon.example/users/${name}`;
      const vote = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: `${voter}#votes/1/activity`,
        type: 'Create', actor: voter, to: [ alice.webId ], object: { id: `${voter}#votes/1`, type: 'Note', name: choice,
          attributedTo: voter, inReplyTo: poll, to: [ alice.webId ]}});
      const answer = await fetch(inbox, { method: 'POST', body: vote, headers: world.sign(inbox, vote, voter, signingHabitOf('mastodon')) });
      expect(answer.status).toBe(202);
    };
    await deliverVote('carol', 'coffee');
    await eventually(async() => (await tally(poll)).voters === 2);
    expect(await tally(poll)).toEqual({ counts: { tea: 1, coffee: 1 }, voters: 2 });
    // The same vote delivered again counts nothing; another voter's does.
    await deliverVote('carol', 'coffee');
    await deliverVote('dan', 'tea');
    await eventually(async() => (await tally(poll)).voters === 3);
    expect(await tally(poll)).toEqual({ counts: { tea: 2, coffee: 1 }, voters: 3 });
  });
});
