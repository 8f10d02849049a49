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

/** Two servers: alice, carol and dave on the first, bob on the second, following alice. */
interface World { first: FedpodServer; second: FedpodServer; alice: Session; bob: Session; carol: Session; dave: Session }

async function startWorld(): Promise<World> {
  const [ first, second ] = await Promise.all([ startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
    startFedpod({ config: 'activitypub', allowPrivateNetwork: true }) ]);
  const world = { first, second, alice: await signup(first.baseUrl, 'alice'), bob: await signup(second.baseUrl, 'bob'),
    carol: await signup(first.baseUrl, 'carol'), dave: await signup(first.baseUrl, 'dave') };
  expect((await postToOutbox(world.bob, { type: 'Follow', object: world.alice.webId })).status).toBe(201);
  // Bob's following takes alice when her Accept is back: only then does his server list her posts for him.
  await eventually(async() => (await pageItemIds(`${world.bob.webId}/following`)).includes(world.alice.webId), 30_000);
  return world;
}

describe('audiences of edits, deletions and replies', () => {
  let first: FedpodServer;
  let second: FedpodServer;
  let alice: Session;
  let bob: Session;
  let carol: Session;
  let dave: Session;

  beforeAll(async() => {
    ({ first, second, alice, bob, carol, dave } = await startWorld());
    expect((await postToOutbox(alice, { type: 'Follow', object: bob.webId })).status).toBe(201);
    await eventually(async() => (await pageItemIds(`${alice.webId}/following`)).includes(bob.webId), 30_000);
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
    expect((await postToOutbox(carol, { type: 'Follow', object: alice.webId })).status).toBe(201);
    await eventually(async() => (await pageItemIds(`${carol.webId}/following`)).includes(alice.webId), 30_000);
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

describe('replies, reactions, polls, hashtags and usage', () => {
  let first: FedpodServer;
  let second: FedpodServer;
  let alice: Session;
  let bob: Session;
  let carol: Session;
  let dave: Session;
  /** The posts (Creates, votes left out) bob made on the second server, which its NodeInfo counts. */
  let bobsPosts = 0;

  beforeAll(async() => {
    ({ first, second, alice, bob, carol, dave } = await startWorld());
  });

  afterAll(async() => {
    await Promise.allSettled([ first?.stop(), second?.stop() ]);
  });

  const objectOf = (answer: { body: Record<string, unknown> }): string => (answer.body.object as { id: string }).id;

  it('serves a post\'s replies to each reader as they may read them, and its likes and shares totals', async() => {
    const followers = `${alice.webId}/followers`;
    const asked = await postToOutbox(alice, { type: 'Note', content: 'what do you think?', to: [ PUBLIC ], cc: [ followers ]});
    const post = objectOf(asked);
    // Bob's server has the post (he follows alice), so his reply is addressed to her.
    await eventually(async() => (await readJson(`${second.baseUrl}remote?id=${encodeURIComponent(post)}`, bob)).status === 200, 30_000);
    const open = objectOf(await postToOutbox(dave, { type: 'Note', content: 'yes', inReplyTo: post, to: [ PUBLIC ]}));
    const secret = objectOf(await postToOutbox(carol, { type: 'Note', content: 'privately: no', inReplyTo: post, to: [ alice.webId ]}));
    await eventually(async() => (await readJson(`${post}/replies`, alice)).body.totalItems === 2, 30_000);
    // A remote reply, received because it answers alice's post (its author is added to cc).
    const remote = await postToOutbox(bob, { type: 'Note', content: 'from afar', inReplyTo: post, to: [ PUBLIC ]});
    expect(remote.body.cc).toEqual([ alice.webId ]);
    bobsPosts += 1;
    const remoteReply = objectOf(remote);
    await eventually(async() => (await readJson(`${post}/replies`)).body.totalItems === 2, 30_000);

    const page = async(reader?: Session): Promise<string[]> => (await readJson(`${post}/replies?page=true`, reader)).body.orderedItems as string[];
    expect(await page()).toEqual([ open, remoteReply ]);
    expect(await page(dave)).toEqual([ open, remoteReply ]);
    expect(await page(carol)).toEqual([ open, secret, remoteReply ]);
    expect(await page(alice)).toEqual([ open, secret, remoteReply ]);
    expect((await readJson(`${post}/replies`, alice)).body).toMatchObject({ type: 'OrderedCollection', totalItems: 3 });

    expect((await postToOutbox(dave, { type: 'Like', object: post, to: [ alice.webId ]})).status).toBe(201);
    expect((await postToOutbox(bob, { type: 'Announce', object: post, to: [ PUBLIC ], cc: [ alice.webId ]})).status).toBe(201);
    await eventually(async() => {
      const { body } = await readJson(post);
      return (body.likes as { totalItems: number }).totalItems === 1 && (body.shares as { totalItems: number }).totalItems === 1;
    }, 30_000);
    expect((await readJson(post)).body.replies).toBe(`${post}/replies`);
    expect((await readJson(`${post}/likes`)).body).toEqual({ '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${post}/likes`, type: 'OrderedCollection', totalItems: 1 });

    // A direct message's collections are as private as the message.
    const direct = objectOf(await postToOutbox(alice, { type: 'Note', content: 'for dave', to: [ dave.webId ]}));
    for (const name of [ 'replies', 'likes', 'shares' ]) {
      expect((await readJson(`${direct}/${name}`, carol)).status).toBe(404);
      expect((await readJson(`${direct}/${name}`)).status).toBe(404);
      expect((await readJson(`${direct}/${name}`, dave)).status).toBe(200);
    }
    expect((await readJson(`${direct}/nothing`, dave)).status).toBeGreaterThanOrEqual(400);
    expect((await readJson(`${post}/replies?page=true&after=bogus`)).status).toBe(400);
  });

  it('sends the poll\'s counts to the remote voter\'s server after the vote', async() => {
    const poll = objectOf(await postToOutbox(alice, { type: 'Question', content: 'Tea or coffee?', to: [ PUBLIC ],
      cc: [ `${alice.webId}/followers` ], oneOf: [ { type: 'Note', name: 'tea' }, { type: 'Note', name: 'coffee' } ],
      endTime: '2099-01-01T00:00:00Z' }));
    const copy = `${second.baseUrl}remote?id=${encodeURIComponent(poll)}`;
    await eventually(async() => (await readJson(copy, bob)).status === 200, 30_000);
    expect((await postToOutbox(bob, { type: 'Note', name: 'coffee', inReplyTo: poll, to: [ alice.webId ]})).status).toBe(201);
    const counted = await eventually(async() => {
      const { body } = await readJson(copy, bob);
      return body.votersCount === 1 ? body : undefined;
    }, 30_000);
    expect(counted.oneOf).toEqual(expect.arrayContaining([ expect.objectContaining({ name: 'coffee', replies: expect.objectContaining({ totalItems: 1 }) }) ]));
    // The vote is no reply.
    expect((await readJson(`${poll}/replies`, alice)).body.totalItems).toBe(0);
  });

  it('lists a hashtag\'s local public posts, as a collection and a page', async() => {
    const tag = [{ type: 'Hashtag', name: '#Threads', href: `${first.baseUrl}tags/threads` }];
    const shown = objectOf(await postToOutbox(alice, { type: 'Note', content: 'about #Threads', tag, to: [ PUBLIC ]}));
    const hidden = objectOf(await postToOutbox(alice, { type: 'Note', content: 'quietly #Threads', tag, to: [ `${alice.webId}/followers` ]}));
    const { body } = await readJson(`${first.baseUrl}tags/threads?page=true`);
    expect(body.orderedItems).toEqual([ shown ]);
    expect(body.orderedItems).not.toContain(hidden);
    expect((await readJson(`${first.baseUrl}tags/THREADS?page=true`)).body.orderedItems).toEqual([ shown ]);
    const page = await fetch(`${first.baseUrl}tags/threads`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    // The outbox linked the hashtag (OutboundHandles): the page's text still reads as written.
    expect(html.replace(/<[^>]*>/gu, '')).toContain('about #Threads');
    expect(html).not.toContain('quietly');
  });

  it('says in NodeInfo how many local posts there are and who was active', async() => {
    const response = await fetch(`${second.baseUrl}nodeinfo/2.1`);
    const usage = (await response.json() as { usage: unknown }).usage;
    expect(usage).toEqual({ users: { total: 1, activeMonth: 1, activeHalfyear: 1 }, localPosts: bobsPosts });
  });
});
