/**
 * A Group's moderators acting on what was posted to the Group (Lemmy's and Mbin's communities): a
 * moderator's Delete of another server's comment is applied when the Group announces it, and only
 * then. The Group, its moderators collection and the members are stand-ins on loopback.
 */
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { signingHabitOf, startFediverseWorld, type FediverseWorld } from '../../support/fediverse-world';
import { signup, type Session } from '../../support/local-actors';
import { standInActorDocument } from '../../support/stand-in-actor';

const AS = 'https://www.w3.org/ns/activitystreams';
const PUBLIC = `${AS}#Public`;

describe('Group moderation', () => {
  let world: FediverseWorld;
  let server: FedpodServer;
  let alice: Session;
  let group: string;
  let moderator: string;
  let member: string;
  let sent = 0;

  beforeAll(async() => {
    world = await startFediverseWorld();
    server = await startFedpod({ config: 'activitypub', allowPrivateNetwork: true, extraArgs: [ '--metrics' ] });
    alice = await signup(server.baseUrl, 'alice');
    group = `${world.origin}/h/lemmy.example/c/main`;
    moderator = `${world.origin}/h/lemmy.example/u/mod`;
    member = `${world.origin}/h/ds9.example/u/quark`;
    world.serve(group, { ...standInActorDocument(group, world.publicKeyPem, 'main'), type: 'Group',
      attributedTo: `${group}/moderators` });
    world.serve(`${group}/moderators`, { type: 'OrderedCollection', orderedItems: [ moderator ] });
  });

  afterAll(async() => {
    await server?.stop();
    await world?.close();
  });

  async function deliver(activity: Record<string, unknown>, actor: string): Promise<void> {
    const body = JSON.stringify({ '@context': AS, ...activity });
    const inbox = `${server.baseUrl}inbox`;
    const answer = await fetch(inbox, { method: 'POST', body, headers: world.sign(inbox, body, actor, signingHabitOf('lemmy')) });
    expect(answer.status).toBe(202);
  }

  /** A comment of the member posted to the Group, announced by it, as alice (who follows nobody) reads it. */
  async function postedComment(): Promise<string> {
    sent += 1;
    const comment = `${world.origin}/h/ds9.example/comment/${sent}`;
    await deliver({ id: `${comment}/create`, type: 'Create', actor: member, to: [ PUBLIC, alice.webId ], cc: [ group ],
      object: { id: comment, type: 'Note', attributedTo: member, content: `comment ${sent}`, audience: group, to: [ PUBLIC ], cc: [ group ] } },
    member);
    await eventually(async() => (await fetch(`${server.baseUrl}remote?id=${encodeURIComponent(comment)}`, {
      headers: { accept: 'application/activity+json', authorization: `Bearer ${alice.token}` } })).status === 200);
    return comment;
  }

  /** Whether the inbox queue has no job waiting, delayed or running (from the metrics). */
  async function inboxQueueIsEmpty(): Promise<boolean> {
    const metrics = await (await fetch(`${server.baseUrl}metrics`)).text();
    return metrics.split('\n').filter((line) => line.startsWith('fedpod_queue_jobs{') && line.includes('queue="ap-inbox"') &&
      /state="(?:waiting|delayed|active)"/u.test(line)).every((line) => Number(line.split(' ').at(-1)) === 0);
  }

  async function status(comment: string): Promise<number> {
    return (await fetch(`${server.baseUrl}remote?id=${encodeURIComponent(comment)}`, {
      headers: { accept: 'application/activity+json', authorization: `Bearer ${alice.token}` } })).status;
  }

  function groupAnnounces(inner: Record<string, unknown>): Record<string, unknown> {
    sent += 1;
    return { id: `${group}/announce/${sent}`, type: 'Announce', actor: group, to: [ PUBLIC, alice.webId ], cc: [ `${group}/followers` ],
      object: inner };
  }

  it('applies a moderator\'s removal of a member\'s comment that the Group announces', async() => {
    const comment = await postedComment();
    const removal = { id: `${world.origin}/h/lemmy.example/activities/delete/1`, type: 'Delete', actor: moderator, object: comment,
      to: [ PUBLIC ], cc: [ group ], audience: group, summary: 'bad comment' };
    await deliver(groupAnnounces(removal), group);
    await eventually(async() => await status(comment) === 410);
  });

  it('refuses the same removal from someone who does not moderate the Group, or sent without the Group', async() => {
    const comment = await postedComment();
    const stranger = `${world.origin}/h/lemmy.example/u/stranger`;
    await deliver(groupAnnounces({ id: `${world.origin}/h/lemmy.example/activities/delete/2`, type: 'Delete', actor: stranger,
      object: comment, to: [ PUBLIC ], cc: [ group ] }), group);
    await deliver({ id: `${world.origin}/h/lemmy.example/activities/delete/3`, type: 'Delete', actor: moderator, object: comment,
      to: [ PUBLIC, alice.webId ], cc: [ group ] }, moderator);
    // Once the inbox queue has nothing left to do, both were processed: the comment is still there.
    await eventually(async() => await inboxQueueIsEmpty());
    expect(await status(comment)).toBe(200);
  });
});
