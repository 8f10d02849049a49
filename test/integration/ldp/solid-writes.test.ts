/**
 * A Solid app's writes on ldp-wac, with the real client libraries: @inrupt/solid-client saves a
 * dataset (a PUT with If-None-Match: * for a new one, a SPARQL Update PATCH for a changed one) in a
 * DPoP session of @inrupt/solid-client-authn-node; N3 Patches and DELETEs with the session's fetch.
 * The owner writes; a stranger and an anonymous client change nothing; preconditions and a failing
 * patch change nothing; a subscriber hears the changes; a write that was answered survives a crash.
 */
import {
  createSolidDataset, createThing, getSolidDataset, getStringNoLocale, getThing, saveSolidDatasetAt, setStringNoLocale, setThing,
} from '@inrupt/solid-client';
import { WebsocketNotification } from '@inrupt/solid-client-notifications';
import type { Session } from '@inrupt/solid-client-authn-node';
import { dpopSession as loggedIn } from '../../support/dpop-session';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { signup, type Session as Account } from '../../support/local-actors';

interface Heard { type?: string; object?: string }

const TITLE = 'http://purl.org/dc/terms/title';
const N3_PREFIXES = '@prefix solid: <http://www.w3.org/ns/solid/terms#>. @prefix dc: <http://purl.org/dc/terms/>.';

describe('A Solid app\'s writes on ldp-wac (DPoP session, solid-client)', () => {
  let server: FedpodServer;
  let owner: Session;
  let stranger: Session;
  const sessions: Session[] = [];
  const sockets: WebsocketNotification[] = [];
  const storage = (): string => `${server.baseUrl}pods/alice/`;

  async function sessionOf(account: Account): Promise<Session> {
    return loggedIn(server.baseUrl, account, sessions);
  }


  /** A new dataset with one thing `#it` titled `title`, saved by the owner (PUT, If-None-Match: *). */
  async function create(name: string, title: string): Promise<string> {
    const url = `${storage()}${name}`;
    const thing = setStringNoLocale(createThing({ url: `${url}#it` }), TITLE, title);
    await saveSolidDatasetAt(url, setThing(createSolidDataset(), thing), { fetch: owner.fetch });
    return url;
  }

  async function titleOf(url: string): Promise<string | null> {
    const thing = getThing(await getSolidDataset(url, { fetch: owner.fetch }), `${url}#it`);
    return thing && getStringNoLocale(thing, TITLE);
  }

  async function retitle(url: string, title: string, fetcher = owner.fetch): Promise<void> {
    const dataset = await getSolidDataset(url, { fetch: fetcher });
    const thing = setStringNoLocale(getThing(dataset, `${url}#it`)!, TITLE, title);
    await saveSolidDatasetAt(url, setThing(dataset, thing), { fetch: fetcher });
  }

  beforeAll(async() => {
    server = await startFedpod({ config: 'ldp-wac' });
    const alice = await signup(server.baseUrl, 'alice');
    const bob = await signup(server.baseUrl, 'bob');
    owner = await sessionOf(alice);
    stranger = await sessionOf(bob);
  });

  afterAll(async() => {
    for (const socket of sockets) {
      socket.disconnect();
    }
    await Promise.allSettled(sessions.map(async(session): Promise<void> => session.logout()));
    await server?.stop();
  });

  it('creates a dataset and saves its changes (SPARQL Update PATCH), and refuses to create it twice', async() => {
    const url = await create('profile.ttl', 'first');
    expect(await titleOf(url)).toBe('first');
    await retitle(url, 'second');
    expect(await titleOf(url)).toBe('second');
    const again = setThing(createSolidDataset(), setStringNoLocale(createThing({ url: `${url}#it` }), TITLE, 'clobbered'));
    await expect(saveSolidDatasetAt(url, again, { fetch: owner.fetch })).rejects.toThrow(/412/u);
    expect(await titleOf(url)).toBe('second');
  });

  it('applies an N3 Patch, and answers 409 to one whose condition does not match, changing nothing', async() => {
    const url = await create('n3.ttl', 'before');
    const patch = (from: string, to: string): string => `${N3_PREFIXES} _:p a solid:InsertDeletePatch;
      solid:where { <#it> dc:title "${from}" }; solid:deletes { <#it> dc:title "${from}" }; solid:inserts { <#it> dc:title "${to}" }.`;
    const send = async(body: string): Promise<number> =>
      (await owner.fetch(url, { method: 'PATCH', headers: { 'content-type': 'text/n3' }, body })).status;
    expect(await send(patch('before', 'after'))).toBe(205);
    expect(await titleOf(url)).toBe('after');
    expect(await send(patch('before', 'never'))).toBe(409);
    expect(await send('INSERT DATA { broken')).toBe(400);
    expect((await owner.fetch(url, { method: 'PATCH', headers: { 'content-type': 'application/sparql-update' },
      body: 'INSERT DATA { <#it> <http://purl.org/dc/terms/title> ' })).status).toBe(400);
    expect(await titleOf(url)).toBe('after');
  });

  it('judges If-Match: a stale ETag is a 412, the current one is taken', async() => {
    const url = await create('etag.ttl', 'one');
    const eTag = (await owner.fetch(url, { method: 'HEAD' })).headers.get('etag')!;
    expect(eTag).toBeTruthy();
    await retitle(url, 'two');
    const body = '<#it> <http://purl.org/dc/terms/title> "three".';
    const stale = await owner.fetch(url, { method: 'PUT', headers: { 'content-type': 'text/turtle', 'if-match': eTag }, body });
    expect(stale.status).toBe(412);
    // Answered by Fedpod's write handlers, not CSS's pipeline.
    expect((await stale.json() as { message: string }).message).toContain('nothing was changed');
    expect((await owner.fetch(url, { method: 'PATCH', headers: { 'content-type': 'application/sparql-update', 'if-match': eTag },
      body: 'INSERT DATA { <#it> <urn:x> "y" . }' })).status).toBe(412);
    expect((await owner.fetch(url, { method: 'DELETE', headers: { 'if-match': eTag }})).status).toBe(412);
    expect(await titleOf(url)).toBe('two');
    const current = (await owner.fetch(url, { method: 'HEAD' })).headers.get('etag')!;
    expect((await owner.fetch(url, { method: 'PUT', headers: { 'content-type': 'text/turtle', 'if-match': current }, body })).status).toBe(205);
    expect(await titleOf(url)).toBe('three');
  });

  it('lets a stranger (403) and an anonymous client (401) change nothing', async() => {
    const url = await create('mine.ttl', 'owned');
    await expect(retitle(url, 'stolen', stranger.fetch)).rejects.toThrow(/403/u);
    const writes: [string, Record<string, string>, string | undefined][] = [
      [ 'PUT', { 'content-type': 'text/turtle' }, '<#it> <http://purl.org/dc/terms/title> "stolen".' ],
      [ 'PATCH', { 'content-type': 'application/sparql-update' }, 'INSERT DATA { <#it> <http://purl.org/dc/terms/title> "stolen" . }' ],
      [ 'PATCH', { 'content-type': 'text/n3' }, `${N3_PREFIXES} _:p a solid:InsertDeletePatch; solid:inserts { <#it> dc:title "stolen" }.` ],
      [ 'DELETE', {}, undefined ],
    ];
    for (const [ method, headers, body ] of writes) {
      expect((await stranger.fetch(url, { method, headers, body })).status).toBe(403);
      expect((await fetch(url, { method, headers, body })).status).toBe(401);
    }
    expect((await stranger.fetch(`${storage()}planted.ttl`, { method: 'PUT', headers: { 'content-type': 'text/turtle' },
      body: '<#it> <urn:p> "x".' })).status).toBe(403);
    expect(await titleOf(url)).toBe('owned');
    expect((await owner.fetch(`${storage()}planted.ttl`)).status).toBe(404);
  });

  it('tells a subscriber of each change, and deletes (205, then 404)', async() => {
    const url = await create('watched.ttl', 'watched');
    const heard: Heard[] = [];
    const socket = new WebsocketNotification(url, { fetch: owner.fetch });
    sockets.push(socket);
    socket.on('message', (message: Heard): void => {
      heard.push(message);
    });
    const connected = new Promise<void>((resolve, reject): void => {
      socket.on('connected', (): void => resolve());
      socket.on('error', reject);
    });
    await socket.connect();
    await connected;
    await retitle(url, 'changed');
    await eventually(async() => heard.some(({ type }): boolean => type === 'Update') ? true : undefined);
    expect((await owner.fetch(url, { method: 'DELETE' })).status).toBe(205);
    await eventually(async() => heard.some(({ type }): boolean => type === 'Delete') ? true : undefined);
    expect((await owner.fetch(url)).status).toBe(404);
    expect((await owner.fetch(url, { method: 'DELETE' })).status).toBe(404);
  });

  it('keeps an answered write through a crash (kill -9)', async() => {
    const url = await create('durable.ttl', 'saved');
    await retitle(url, 'patched');
    await server.kill9();
    await server.restart();
    expect(await titleOf(url)).toBe('patched');
  });
});
