/**
 * What local actors do to their own accounts through the outbox, seen by others over HTTP: profile
 * Updates (and what stays the server's), manual approval of followers, pinned posts (featured),
 * Block and its Undo, and Move to another account checked against alsoKnownAs.
 */
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { pageItemIds, postToOutbox, readJson, signup, type Session } from '../../support/local-actors';

const AS = 'https://www.w3.org/ns/activitystreams';
const PUBLIC = `${AS}#Public`;

describe('profiles, pins, blocks and moves', () => {
  let server: FedpodServer;

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub', allowPrivateNetwork: true });
  });

  afterAll(async() => {
    await server?.stop();
  });

  /** `follower` follows `followed` and waits until both sides record it. */
  async function follow(follower: Session, followed: Session): Promise<void> {
    expect((await postToOutbox(follower, { type: 'Follow', object: followed.webId })).status).toBe(201);
    await eventually(async() => (await pageItemIds(`${follower.webId}/following`)).includes(followed.webId));
    expect(await pageItemIds(`${followed.webId}/followers`)).toContain(follower.webId);
  }

  async function publicNote(session: Session, content: string, to: string[] = [ PUBLIC ]): Promise<string> {
    const { status, body } = await postToOutbox(session, { type: 'Note', content, to });
    expect(status).toBe(201);
    return (body.object as { id: string }).id;
  }

  describe('profile updates', () => {
    let alice: Session;
    let bob: Session;

    beforeAll(async() => {
      alice = await signup(server.baseUrl, 'pat');
      bob = await signup(server.baseUrl, 'quinn');
      await follow(bob, alice);
    });

    it('changes name, summary, icon and alsoKnownAs, keeps the keys and collections, and tells the followers', async() => {
      const before = (await readJson(alice.webId)).body;
      const { status, body } = await postToOutbox(alice, { type: 'Update', object: { id: alice.webId, name: 'Pat P.',
        summary: '<p>Writes things.</p>', icon: { type: 'Image', url: 'https://cdn.example/pat.png' },
        alsoKnownAs: [ 'https://old.example/users/pat' ]}});
      expect(status).toBe(201);
      expect(body).toMatchObject({ type: 'Update', to: [ PUBLIC ], cc: [ `${alice.webId}/followers` ],
        object: { id: alice.webId, name: 'Pat P.' }});
      const after = (await readJson(alice.webId)).body;
      expect(after).toMatchObject({ name: 'Pat P.', summary: '<p>Writes things.</p>',
        icon: { type: 'Image', url: 'https://cdn.example/pat.png' }, alsoKnownAs: 'https://old.example/users/pat' });
      for (const key of [ 'publicKey', 'inbox', 'outbox', 'followers', 'following', 'featured', 'preferredUsername', 'endpoints' ]) {
        expect(after[key]).toEqual(before[key]);
      }
      await eventually(async() => (await pageItemIds(`${bob.webId}/inbox`, bob)).includes(body.id as string));
    });

    it('takes back the whole document a client read, with an editable key changed, and clears a key given as null', async() => {
      const read = (await readJson(alice.webId)).body;
      expect((await postToOutbox(alice, { type: 'Update', object: { ...read, name: 'Pat', summary: null }})).status).toBe(201);
      const after = (await readJson(alice.webId)).body;
      expect(after.name).toBe('Pat');
      expect(after.summary).toBeUndefined();
      expect(after.icon).toEqual(read.icon);
    });

    it('refuses a change of what the server owns (inbox, keys) with 400 and changes nothing', async() => {
      const before = (await readJson(alice.webId)).body;
      const moved = await postToOutbox(alice, { type: 'Update', object: { id: alice.webId, name: 'Mallory',
        inbox: 'https://evil.example/inbox' }});
      expect(moved.status).toBe(400);
      expect(moved.body).toMatchObject({ error: 'not_editable' });
      expect(String(moved.body.message)).toContain('inbox');
      expect((await readJson(alice.webId)).body).toEqual(before);
    });

    it('lets only the actor update its own profile', async() => {
      const { status, body } = await postToOutbox(bob, { type: 'Update', object: { id: alice.webId, name: 'Hijacked' }});
      expect(status).toBe(403);
      expect(body.error).toBe('not_owner');
      expect((await readJson(alice.webId)).body.name).toBe('Pat');
    });
  });

  it('leaves a Follow for the owner to answer when the profile asks to approve followers', async() => {
    const carol = await signup(server.baseUrl, 'carol');
    const dave = await signup(server.baseUrl, 'dave');
    expect((await postToOutbox(carol, { type: 'Update', object: { id: carol.webId, manuallyApprovesFollowers: true }})).status)
      .toBe(201);
    const { body: followed } = await postToOutbox(dave, { type: 'Follow', object: carol.webId });
    await eventually(async() => (await pageItemIds(`${carol.webId}/inbox`, carol)).includes(followed.id as string));
    expect(await pageItemIds(`${carol.webId}/followers`)).not.toContain(dave.webId);
    expect(await pageItemIds(`${dave.webId}/following`)).not.toContain(carol.webId);
    expect((await postToOutbox(carol, { type: 'Accept', object: followed.id })).status).toBe(201);
    expect(await pageItemIds(`${carol.webId}/followers`)).toContain(dave.webId);
    await eventually(async() => (await pageItemIds(`${dave.webId}/following`)).includes(carol.webId));
  });

  describe('pinned posts', () => {
    let erin: Session;
    let frank: Session;

    beforeAll(async() => {
      erin = await signup(server.baseUrl, 'erin');
      frank = await signup(server.baseUrl, 'frank');
    });

    it('pins a public post into featured, served with the post embedded to anyone, and unpins it', async() => {
      const note = await publicNote(erin, 'pinned hello');
      const featured = `${erin.webId}/featured`;
      expect((await readJson(erin.webId)).body.featured).toBe(featured);
      const pinned = await postToOutbox(erin, { type: 'Add', object: note, target: featured });
      expect(pinned.status).toBe(201);
      const page = (await readJson(`${featured}?page=true`)).body;
      expect(page.orderedItems).toEqual([ expect.objectContaining({ id: note, type: 'Note', content: 'pinned hello' }) ]);
      expect((await readJson(featured)).body.totalItems).toBe(1);
      expect((await postToOutbox(erin, { type: 'Remove', object: note, target: featured })).status).toBe(201);
      expect(await pageItemIds(featured)).toEqual([]);
    });

    it('refuses to pin a followers-only post (400) or another actor\'s post (403)', async() => {
      const featured = `${erin.webId}/featured`;
      const hidden = await publicNote(erin, 'for followers', [ `${erin.webId}/followers` ]);
      const refused = await postToOutbox(erin, { type: 'Add', object: hidden, target: featured });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('not_public');
      const others = await publicNote(frank, 'frank says');
      const stolen = await postToOutbox(erin, { type: 'Add', object: others, target: featured });
      expect(stolen.status).toBe(403);
      expect(await pageItemIds(featured)).toEqual([]);
    });

    it('unpins a post its author deletes', async() => {
      const featured = `${erin.webId}/featured`;
      const note = await publicNote(erin, 'soon gone');
      await postToOutbox(erin, { type: 'Add', object: note, target: featured });
      expect(await pageItemIds(featured)).toEqual([ note ]);
      expect((await postToOutbox(erin, { type: 'Delete', object: note })).status).toBe(201);
      expect(await pageItemIds(featured)).toEqual([]);
    });
  });

  it('Block ends the follows both ways, keeps the blocked actor\'s posts out of the inbox and rejects its Follows; Undo lifts it', async() => {
    const gina = await signup(server.baseUrl, 'gina');
    const hal = await signup(server.baseUrl, 'hal');
    await follow(hal, gina);
    await follow(gina, hal);
    const { status, body: block } = await postToOutbox(gina, { type: 'Block', object: hal.webId });
    expect(status).toBe(201);
    expect(block.to).toEqual([ hal.webId ]);
    expect(await pageItemIds(`${gina.webId}/followers`)).not.toContain(hal.webId);
    expect(await pageItemIds(`${gina.webId}/following`)).not.toContain(hal.webId);
    // Hal's server (this one) applies the Block it received: Hal no longer follows Gina.
    await eventually(async() => !(await pageItemIds(`${hal.webId}/following`)).includes(gina.webId));
    // The Block joins Hal's inbox after its effect has run (both in the same delivery job).
    await eventually(async() => (await pageItemIds(`${hal.webId}/inbox`, hal)).includes(block.id as string));

    const { body: note } = await postToOutbox(hal, { type: 'Note', content: 'hello gina', to: [ gina.webId ]});
    const { body: refollow } = await postToOutbox(hal, { type: 'Follow', object: gina.webId });
    // The Follow is answered with a Reject, which reaches Hal's inbox; Gina's inbox got neither.
    await eventually(async() => {
      const page = (await readJson(`${hal.webId}/inbox?page=true`, hal)).body.orderedItems as Record<string, unknown>[];
      return page.some((item) => item.type === 'Reject' && (item.object as { id?: string }).id === refollow.id);
    });
    const ginasInbox = await pageItemIds(`${gina.webId}/inbox`, gina);
    expect(ginasInbox).not.toContain(note.id);
    expect(ginasInbox).not.toContain(refollow.id);
    expect(await pageItemIds(`${gina.webId}/followers`)).not.toContain(hal.webId);

    expect((await postToOutbox(gina, { type: 'Undo', object: block.id })).status).toBe(201);
    await follow(hal, gina);
  });

  it('Move goes only to an account that names the old one in alsoKnownAs, and takes the followers there', async() => {
    const ida = await signup(server.baseUrl, 'ida');
    const jo = await signup(server.baseUrl, 'jo');
    const kim = await signup(server.baseUrl, 'kim');
    await follow(kim, ida);
    const unconfirmed = await postToOutbox(ida, { type: 'Move', object: ida.webId, target: jo.webId });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.error).toBe('move_not_confirmed');
    expect((await readJson(ida.webId)).body.movedTo).toBeUndefined();

    expect((await postToOutbox(jo, { type: 'Update', object: { id: jo.webId, alsoKnownAs: [ ida.webId ]}})).status).toBe(201);
    const moved = await postToOutbox(ida, { type: 'Move', object: ida.webId, target: jo.webId });
    expect(moved.status).toBe(201);
    expect(moved.body.to).toEqual([ `${ida.webId}/followers` ]);
    expect((await readJson(ida.webId)).body.movedTo).toBe(jo.webId);
    // Kim's server (this one) checks the Move and makes Kim follow the new account instead.
    await eventually(async() => (await pageItemIds(`${kim.webId}/following`)).includes(jo.webId));
    expect(await pageItemIds(`${kim.webId}/following`)).not.toContain(ida.webId);
    expect(await pageItemIds(`${jo.webId}/followers`)).toContain(kim.webId);
  });
});
