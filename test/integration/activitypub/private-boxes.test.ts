/**
 * The audience of collection pages in the default ActivityPub setup: inbox and outbox items are
 * visible to their owner, and to others only when addressed to them or to the Public collection.
 */
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { httpRequest } from '../../support/sparql';
import { itemIds } from '../../support/collections';

const AS = 'https://www.w3.org/ns/activitystreams#';

describe('private inbox and outbox', () => {
  let server: FedpodServer;
  const tokens: Record<string, string> = {};

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
    for (const username of [ 'alice', 'bob', 'carol' ]) {
      const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: `${username}@example.com`, password: 'correct horse' }) });
      expect(response.status).toBe(201);
      tokens[username] = (await response.json() as { token: string }).token;
    }
    const inbox = `${server.baseUrl}actors/alice/inbox`;
    const item = (name: string, to?: string): string => {
      const iri = `${server.baseUrl}activities/${name}`;
      return `GRAPH <${inbox}> { <${inbox}> <${AS}items> <${iri}> . <${iri}> <urn:fedpod:ns:addedAt> "2026-01-01T00:00:0${name.length}Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> }
        ${to ? `GRAPH <${iri}> { <${iri}> <${AS}to> <${to}> }` : ''}`;
    };
    const update = `INSERT DATA { ${item('p', `${AS}Public`)} ${item('bb', `${server.baseUrl}actors/bob`)} ${item('nnn')} }`;
    const answer = await httpRequest(`http://127.0.0.1:${server.storePort}/localData/update`, { method: 'POST',
      body: `update=${encodeURIComponent(update)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` } });
    expect(answer.status).toBeLessThan(300);
  });

  afterAll(async() => {
    await server?.stop();
  });

  async function visible(token?: string): Promise<{ total: number; items: string[] }> {
    const headers: Record<string, string> = { accept: 'application/activity+json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const inbox = `${server.baseUrl}actors/alice/inbox`;
    const collection = await (await fetch(inbox, { headers })).json() as { totalItems: number };
    const page = await (await fetch(`${inbox}?page=true`, { headers })).json() as { orderedItems: unknown };
    return { total: collection.totalItems, items: itemIds(page).map((iri) => iri.split('/').at(-1)!).sort() };
  }

  it('shows the owner everything', async() => {
    expect(await visible(tokens.alice)).toEqual({ total: 3, items: [ 'bb', 'nnn', 'p' ] });
  });

  it('shows an addressee the items addressed to them and to Public', async() => {
    expect(await visible(tokens.bob)).toEqual({ total: 2, items: [ 'bb', 'p' ] });
  });

  it('shows others and anonymous readers only Public items', async() => {
    expect(await visible(tokens.carol)).toEqual({ total: 1, items: [ 'p' ] });
    expect(await visible()).toEqual({ total: 1, items: [ 'p' ] });
  });
});
