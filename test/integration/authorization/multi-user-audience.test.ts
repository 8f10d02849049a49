/**
 * Who reads what on a server with many users, across two real Fedpod instances: bob on server B
 * posts direct, followers-only, public and mention-only notes; on server A alice is the addressee,
 * carol follows bob, dave is a stranger. Each reader's inbox, `/remote` (JSON and the page a browser
 * gets) and Solid notifications of their inbox must show exactly what the audience rules let them
 * read. Deliveries reach A through its shared inbox, where a direct message once joined the inboxes
 * of the sender's local followers. A local sender's direct message is checked the same way.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createPrivateKey } from 'node:crypto';
import type { Browser } from 'puppeteer-core';
import type WebSocket from 'ws';
import { launchBrowser } from '../../support/browser';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { pageItemIds, postToOutbox, readJson, signup, type Session } from '../../support/local-actors';
import { subscribeWebSocket, type Notification } from '../../support/notifications';
import { cavageHeaders } from '../../robustness/support/forgery';

const AS = 'https://www.w3.org/ns/activitystreams';
const PUBLIC = `${AS}#Public`;

type Reader = 'alice' | 'carol' | 'dave';
type Kind = 'direct' | 'followers-only' | 'public' | 'mention-only';
const READERS: Reader[] = [ 'alice', 'carol', 'dave' ];
const KINDS: Kind[] = [ 'direct', 'followers-only', 'public', 'mention-only' ];

/** Whose inbox each of bob's notes reaches on A (Mastodon's rule). */
const REACHES: Record<Kind, Reader[]> = {
  'direct': [ 'alice' ],
  'followers-only': [ 'carol' ],
  'public': [ 'carol' ],
  'mention-only': [ 'alice' ],
};
/** Who may read each note at all (a public note: everyone, anonymous readers too). */
const MAY_READ: Record<Kind, Reader[]> = { ...REACHES, public: READERS };

describe('audience rules with three local users and a remote sender, on two Fedpod instances', () => {
  let serverA: FedpodServer;
  let serverB: FedpodServer;
  let browser: Browser;
  const users = {} as Record<Reader, Session>;
  let bob: Session;
  const sent = {} as Record<Kind, { activity: string; note: string }>;
  const sockets: WebSocket[] = [];
  const heard = {} as Record<Reader, Notification[]>;
  let last: { activity: string; note: string };

  const inboxOf = async(reader: Reader, as: Session | undefined = users[reader]): Promise<string[]> =>
    pageItemIds(`${users[reader].webId}/inbox`, as);

  async function remote(iri: string, as?: Session, accept = 'application/activity+json'): Promise<Response> {
    return fetch(`${serverA.baseUrl}remote?id=${encodeURIComponent(iri)}`,
      { headers: { accept, ...as ? { authorization: `Bearer ${as.token}` } : {} } });
  }

  async function bobPosts(note: Record<string, unknown>): Promise<{ activity: string; note: string }> {
    const answer = await postToOutbox(bob, { '@context': AS, type: 'Note', attributedTo: bob.webId, ...note });
    expect(answer.status).toBe(201);
    const activity = answer.body.id as string;
    const object = answer.body.object as string | { id: string };
    return { activity, note: typeof object === 'string' ? object : object.id };
  }

  /**
   * What a Mastodon server sends for a post whose only audience is a Mention (no to or cc): signed
   * with bob's key, to A's shared inbox. Fedpod's own outbox does not deliver such posts yet.
   */
  async function deliverMentionOnly(): Promise<{ activity: string; note: string }> {
    const activity = `${serverB.baseUrl}activities/mention-only-1`;
    const note = `${serverB.baseUrl}objects/mention-only-1`;
    const body = JSON.stringify({ '@context': AS, id: activity, type: 'Create', actor: bob.webId,
      object: { id: note, type: 'Note', attributedTo: bob.webId, content: 'a mention-only note',
        tag: [{ type: 'Mention', href: users.alice.webId, name: '@alice' }] }});
    const key = createPrivateKey(fs.readFileSync(path.join(serverB.dataDir, 'actors', 'bob', 'private.pem')));
    const inbox = new URL(`${serverA.baseUrl}inbox`);
    const answer = await fetch(inbox, { method: 'POST', body, headers: cavageHeaders({ method: 'post', path: inbox.pathname,
      host: inbox.host, body, key, keyId: `${bob.webId}#main-key` }) });
    expect(answer.status).toBe(202);
    return { activity, note };
  }

  beforeAll(async() => {
    [ serverA, serverB ] = await Promise.all([
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
    ]);
    for (const reader of READERS) {
      users[reader] = await signup(serverA.baseUrl, reader);
    }
    bob = await signup(serverB.baseUrl, 'bob');
    // carol follows bob; his server accepts at once.
    expect((await postToOutbox(users.carol, { '@context': AS, type: 'Follow', object: bob.webId })).status).toBe(201);
    await eventually(async() => (await pageItemIds(`${users.carol.webId}/following`)).includes(bob.webId) ? true : undefined);
    await eventually(async() => (await pageItemIds(`${bob.webId}/followers`)).includes(users.carol.webId) ? true : undefined);
    for (const reader of READERS) {
      heard[reader] = await subscribeWebSocket(serverA.baseUrl, `${users[reader].webId}/inbox`, sockets,
        { authorization: `Bearer ${users[reader].token}` });
    }
    const mention = { type: 'Mention', href: users.alice.webId, name: '@alice' };
    sent.direct = await bobPosts({ content: 'a direct note', to: [ users.alice.webId ], tag: [ mention ] });
    sent['followers-only'] = await bobPosts({ content: 'a followers-only note', to: [ `${bob.webId}/followers` ] });
    sent.public = await bobPosts({ content: 'a public note', to: [ PUBLIC ], cc: [ `${bob.webId}/followers` ] });
    sent['mention-only'] = await deliverMentionOnly();
    // Then to all three, so that every inbox has something to notify of.
    last = await bobPosts({ content: 'for all three', to: READERS.map((reader) => users[reader].webId) });
    // B delivers in any order. Each activity joins all its inboxes in one store update, so once it is
    // listed in one inbox it reaches, every inbox it was (wrongly or rightly) added to lists it too.
    await eventually(async() => {
      for (const kind of KINDS) {
        if (!(await inboxOf(REACHES[kind][0])).includes(sent[kind].activity)) {
          return undefined;
        }
      }
      return (await inboxOf('dave')).includes(last.activity) ? true : undefined;
    }, 60_000);
    browser = await launchBrowser();
  });

  afterAll(async() => {
    for (const socket of sockets) {
      socket.terminate();
    }
    await browser?.close();
    await Promise.all([ serverA?.stop(), serverB?.stop() ]);
  });

  it.each(READERS)('%s\'s inbox lists exactly the notes that reach them', async(reader) => {
    const listed = await inboxOf(reader);
    const expected = KINDS.filter((kind) => REACHES[kind].includes(reader));
    expect(KINDS.filter((kind) => listed.includes(sent[kind].activity))).toEqual(expected);
  });

  it.each(READERS)('what %s reads of another user\'s inbox holds nothing they may not read', async(reader) => {
    for (const owner of READERS.filter((other) => other !== reader)) {
      const listed = await inboxOf(owner, users[reader]);
      const shown = KINDS.filter((kind) => listed.includes(sent[kind].activity));
      expect(`${reader} reading ${owner}'s inbox: ${shown.join(', ')}`)
        .toBe(`${reader} reading ${owner}'s inbox: ${shown.filter((kind) => MAY_READ[kind].includes(reader)).join(', ')}`);
      expect(shown.filter((kind) => kind !== 'public')).toEqual([]);
    }
  });

  it.each(KINDS)('/remote serves the %s note and its activity only to who may read it, else 404', async(kind) => {
    for (const reader of [ ...READERS, undefined ]) {
      const expected = reader === undefined ? (kind === 'public' ? 200 : 404) : MAY_READ[kind].includes(reader) ? 200 : 404;
      for (const iri of [ sent[kind].note, sent[kind].activity ]) {
        const answer = await remote(iri, reader === undefined ? undefined : users[reader]);
        expect(`${reader ?? 'anonymous'} ${iri} ${answer.status}`).toBe(`${reader ?? 'anonymous'} ${iri} ${expected}`);
        const text = await answer.text();
        expect(text.includes(`a ${kind} note`)).toBe(expected === 200);
      }
    }
  });

  it.each(KINDS)('the page of the %s note in a browser follows the same rule', async(kind) => {
    for (const reader of [ ...READERS, undefined ]) {
      const expected = reader === undefined ? (kind === 'public' ? 200 : 404) : MAY_READ[kind].includes(reader) ? 200 : 404;
      const page = await browser.newPage();
      try {
        if (reader !== undefined) {
          await page.setExtraHTTPHeaders({ authorization: `Bearer ${users[reader].token}` });
        }
        const answer = await page.goto(`${serverA.baseUrl}remote?id=${encodeURIComponent(sent[kind].note)}`);
        expect(`${reader ?? 'anonymous'} ${answer?.status()}`).toBe(`${reader ?? 'anonymous'} ${expected}`);
        expect(answer?.headers()['content-type']).toMatch(/^text\/html/u);
        const body = await page.content();
        expect(body.includes(`a ${kind} note`)).toBe(expected === 200);
      } finally {
        await page.close();
      }
    }
  });

  it('Solid notifications of an inbox come for what reaches it, and only for that', async() => {
    for (const reader of READERS) {
      // One per note that reached them, and one for the last note, sent to all three.
      const expected = KINDS.filter((kind) => REACHES[kind].includes(reader)).length + 1;
      const topic = `${users[reader].webId}/inbox`;
      await eventually(async() => heard[reader].filter(({ object }) => object === topic).length >= expected ? true : undefined);
      expect(`${reader} ${heard[reader].length}`).toBe(`${reader} ${expected}`);
    }
    // A stranger cannot listen in on what reaches alice through the note itself.
    const answer = await remote(sent.direct.note, users.dave);
    expect(answer.status).toBe(404);
  });

  it('a local user\'s direct message reaches its addressee only, not the sender\'s local followers', async() => {
    // carol follows dave on the same server.
    expect((await postToOutbox(users.carol, { '@context': AS, type: 'Follow', object: users.dave.webId })).status).toBe(201);
    await eventually(async() => (await pageItemIds(`${users.dave.webId}/followers`)).includes(users.carol.webId) ? true : undefined);
    const direct = await postToOutbox(users.dave, { '@context': AS, type: 'Note', content: 'dave to alice', to: [ users.alice.webId ] });
    expect(direct.status).toBe(201);
    const forFollowers = await postToOutbox(users.dave, { '@context': AS, type: 'Note', content: 'dave to followers',
      to: [ `${users.dave.webId}/followers` ] });
    expect(forFollowers.status).toBe(201);
    await eventually(async() => (await inboxOf('carol')).includes(forFollowers.body.id as string) ? true : undefined);
    await eventually(async() => (await inboxOf('alice')).includes(direct.body.id as string) ? true : undefined);
    expect(await inboxOf('carol')).not.toContain(direct.body.id);
    expect(await inboxOf('alice')).not.toContain(forFollowers.body.id);
    const note = direct.body.object as string | { id: string };
    const noteId = typeof note === 'string' ? note : note.id;
    expect((await readJson(noteId, users.carol)).status).toBe(404);
    expect((await readJson(noteId, users.alice)).status).toBe(200);
  });
});
