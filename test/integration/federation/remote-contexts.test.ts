/**
 * JSON-LD contexts of other servers that no bundle covers: fetched over HTTPS through the SSRF guard,
 * once per URL, and an activity whose context cannot be had is kept with the terms it still has.
 * The context server is a real HTTPS server on loopback, trusted through the test CA.
 */
import * as https from 'node:https';
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { idOf } from '../../../src/plugins/activitypub/ActivityJson';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { signingHabitOf, startFediverseWorld, type FediverseWorld } from '../../support/fediverse-world';
import { signup, type Session } from '../../support/local-actors';
import { testTls, tlsEnv } from '../../support/tls';

type Json = Record<string, unknown>;
const AS = 'https://www.w3.org/ns/activitystreams';
const MOOD = 'https://vocab.example/ns#mood';

describe('contexts of other servers', () => {
  let contexts: https.Server;
  let contextOrigin: string;
  const requests: string[] = [];
  let world: FediverseWorld;
  let server: FedpodServer;
  let alice: Session;
  let sent = 0;

  beforeAll(async() => {
    const tls = testTls();
    contexts = https.createServer({ cert: fs.readFileSync(tls.certFile), key: fs.readFileSync(tls.keyFile) }, (request, response) => {
      requests.push(request.url ?? '');
      if (request.url === '/ns/mood') {
        response.writeHead(200, { 'content-type': 'application/ld+json' });
        response.end(JSON.stringify({ '@context': { mood: MOOD } }));
      } else {
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('not here');
      }
    });
    await new Promise<void>((resolve) => contexts.listen(0, '127.0.0.1', resolve));
    contextOrigin = `https://localhost:${(contexts.address() as AddressInfo).port}`;
    world = await startFediverseWorld();
    server = await startFedpod({ config: 'activitypub', allowPrivateNetwork: true, env: tlsEnv(testTls()) });
    alice = await signup(server.baseUrl, 'alice');
  });

  afterAll(async() => {
    await server?.stop();
    await world?.close();
    contexts?.closeAllConnections();
    await new Promise((resolve) => contexts?.close(resolve));
  });

  /** Delivers a signed Create of a Note with `mood`, read with `context`, to alice; resolves with the Note as her inbox shows it. */
  async function deliverNote(context: unknown[]): Promise<Json> {
    sent += 1;
    const actor = `${world.origin}/h/contexts.example/users/zoe`;
    const note = `${world.origin}/h/contexts.example/notes/${sent}`;
    const body = JSON.stringify({ '@context': context, id: `${note}/activity`, type: 'Create', actor, to: [ alice.webId ],
      object: { id: note, type: 'Note', attributedTo: actor, to: [ alice.webId ], content: `note ${sent}`, mood: 'cheerful' } });
    const inbox = `${alice.webId}/inbox`;
    const answer = await fetch(inbox, { method: 'POST', body, headers: world.sign(inbox, body, actor, signingHabitOf('mastodon')) });
    expect(answer.status).toBe(202);
    return eventually(async() => {
      const page = await (await fetch(`${inbox}?page=true`, { headers: { accept: 'application/activity+json',
        authorization: `Bearer ${alice.token}` } })).json() as { orderedItems: Json[] };
      return page.orderedItems.find((item) => idOf(item) === `${note}/activity`)?.object as Json | undefined;
    }, 20_000, 100);
  }

  it('reads a term defined only by a remote context, fetching the context once', async() => {
    const first = await deliverNote([ AS, `${contextOrigin}/ns/mood` ]);
    expect(first[MOOD]).toBe('cheerful');
    expect(first.content).toBe('note 1');
    const second = await deliverNote([ AS, `${contextOrigin}/ns/mood` ]);
    expect(second[MOOD]).toBe('cheerful');
    expect(requests.filter((url) => url === '/ns/mood')).toHaveLength(1);
  });

  it('keeps an activity whose context cannot be had, with the terms it still has, and asks again only later', async() => {
    const note = await deliverNote([ AS, `${contextOrigin}/ns/gone` ]);
    expect(note.content).toBe('note 3');
    // Undefined now, `mood` is kept under the server's vocabulary for undefined terms and served back by name.
    expect(note[MOOD]).toBeUndefined();
    expect(note.mood).toBe('cheerful');
    await deliverNote([ AS, `${contextOrigin}/ns/gone` ]);
    expect(requests.filter((url) => url === '/ns/gone')).toHaveLength(1);
  });

  it('does not fetch a context over plain HTTP', async() => {
    const before = requests.length;
    const note = await deliverNote([ AS, `${world.origin}/h/contexts.example/ns/mood` ]);
    expect(note.content).toBe('note 5');
    expect(note[MOOD]).toBeUndefined();
    expect(requests).toHaveLength(before);
  });
});
