/**
 * Who gets an edit, a deletion and a reply: two real Fedpod instances (alice on the first, bob on
 * the second, each following the other) and three local users for privacy (an Update or Delete of
 * a direct message sent without addressing reaches its addressee and nobody else).
 */
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { pageItemIds, postToOutbox, readJson, signup, type Session } from '../../support/local-actors';

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

/** Whether `id` is listed in the session's inbox (read by its owner). */
async function inInbox(session: Session, id: string): Promise<boolean> {
  return (await pageItemIds(`${session.webId}/inbox`, session)).includes(id);
}

describe('audiences of edits, deletions and replies', () => {
  let first: FedpodServer;
  let second: FedpodServer;
  let alice: Session;
  let bob: Session;

  beforeAll(async() => {
    [ first, second ] = await Promise.all([ startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }) ]);
    alice = await signup(first.baseUrl, 'alice');
    bob = await signup(second.baseUrl, 'bob');
    expect((await postToOutbox(bob, { type: 'Follow', object: alice.webId })).status).toBe(201);
    expect((await postToOutbox(alice, { type: 'Follow', object: bob.webId })).status).toBe(201);
    await eventually(async() => (await pageItemIds(`${alice.webId}/followers`)).includes(bob.webId) &&
      (await pageItemIds(`${bob.webId}/followers`)).includes(alice.webId), 30_000);
  });

  afterAll(async() => {
    await Promise.allSettled([ first?.stop(), second?.stop() ]);
  });

  it('an unaddressed Update and Delete of a followers-only post reach the remote follower', async() => {
    const posted = await postToOutbox(alice, { type: 'Note', content: 'first words', to: [ `${alice.webId}/followers` ]});
    expect(posted.status).toBe(201);
    const note = (posted.body.object as { id: string }).id;
    await eventually(async() => inInbox(bob, posted.body.id as string), 30_000);

    const edit = await postToOutbox(alice, { type: 'Update', object: { id: note, type: 'Note', content: 'better words' }});
    expect(edit.status).toBe(201);
    expect(edit.body.to).toEqual([ `${alice.webId}/followers` ]);
    await eventually(async() => inInbox(bob, edit.body.id as string), 30_000);
    const copy = await readJson(`${second.baseUrl}remote?id=${encodeURIComponent(note)}`, bob);
    expect(copy.status).toBe(200);
    expect(JSON.stringify(copy.body)).toContain('better words');
    // The edit kept the post's audience: still followers-only.
    expect((await readJson(note)).status).toBe(404);
    expect((await readJson(note, alice)).body).toMatchObject({ content: 'better words', to: `${alice.webId}/followers` });

    const deletion = await postToOutbox(alice, { type: 'Delete', object: note });
    expect(deletion.status).toBe(201);
    await eventually(async() => inInbox(bob, deletion.body.id as string), 30_000);
  });

  it('a reply reaches the remote author of the post it answers, though not addressed to them', async() => {
    const posted = await postToOutbox(bob, { type: 'Note', content: 'a question', to: [ PUBLIC ], cc: [ `${bob.webId}/followers` ]});
    const question = (posted.body.object as { id: string }).id;
    await eventually(async() => inInbox(alice, posted.body.id as string), 30_000);
    const reply = await postToOutbox(alice, { type: 'Note', content: 'an answer', inReplyTo: question, to: [ PUBLIC ]});
    expect(reply.status).toBe(201);
    expect(reply.body.cc).toEqual([ bob.webId ]);
    await eventually(async() => inInbox(bob, reply.body.id as string), 30_000);
  });

  it('an unaddressed Update and Delete of a direct message reach its addressee only', async() => {
    const carol = await signup(first.baseUrl, 'carol');
    const dave = await signup(first.baseUrl, 'dave');
    expect((await postToOutbox(carol, { type: 'Follow', object: alice.webId })).status).toBe(201);
    await eventually(async() => (await pageItemIds(`${alice.webId}/followers`)).includes(carol.webId), 30_000);
    const posted = await postToOutbox(alice, { type: 'Note', content: 'for dave only', to: [ dave.webId ]});
    const note = (posted.body.object as { id: string }).id;
    await eventually(async() => inInbox(dave, posted.body.id as string), 30_000);

    const edit = await postToOutbox(alice, { type: 'Update', object: { id: note, type: 'Note', content: 'still for dave only' }});
    expect(edit.body.to).toEqual([ dave.webId ]);
    await eventually(async() => inInbox(dave, edit.body.id as string), 30_000);
    const deletion = await postToOutbox(alice, { type: 'Delete', object: note });
    await eventually(async() => inInbox(dave, deletion.body.id as string), 30_000);

    // A follower and the remote follower were not addressed: neither the edit nor the deletion reached them.
    // (A later public post, delivered after them through the same queue, shows the deliveries are done.)
    const later = await postToOutbox(alice, { type: 'Note', content: 'public again', to: [ PUBLIC ], cc: [ `${alice.webId}/followers` ]});
    await eventually(async() => await inInbox(carol, later.body.id as string) && inInbox(bob, later.body.id as string), 30_000);
    for (const session of [ carol, bob ]) {
      const items = await pageItemIds(`${session.webId}/inbox`, session);
      expect(items).not.toContain(edit.body.id);
      expect(items).not.toContain(deletion.body.id);
      expect(items).not.toContain(posted.body.id);
    }
    expect((await readJson(edit.body.id as string, carol)).status).toBe(404);
    expect((await readJson(edit.body.id as string, dave)).status).toBe(200);
  });
});
