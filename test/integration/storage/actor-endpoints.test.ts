import { randomUUID } from 'node:crypto';
import { SparqlActorEndpointRecords } from '../../../src/storage/SparqlActorEndpointRecords';
import { STORES } from './support/storageStores';

/**
 * The remote actors' endpoints (what a fan-out reads instead of fetching its followers' actors) on
 * every store Fedpod runs on, whose SPARQL dialects differ from the embedded store's (the unit
 * tests run there): a lookup of many actors at once (a VALUES block), OPTIONAL shared inboxes, and
 * a replace seen by another client.
 */
describe.each(STORES)('SparqlActorEndpointRecords on $name', ({ client: makeClient, prepare, finish }): void => {
  let host: string;

  beforeAll(prepare);
  afterAll(finish);

  beforeEach((): void => {
    host = `https://${randomUUID()}.remote.example`;
  });

  it('finds what it kept among many asked for, and nothing for unknown actors', async(): Promise<void> => {
    const records = new SparqlActorEndpointRecords(makeClient());
    const checkedAt = Date.parse('2026-03-01T00:00:00Z');
    const kept = Array.from({ length: 150 }, (unused, index): [string, { inbox: string; sharedInbox?: string; checkedAt: number }] =>
      [ `${host}/users/${index}`, { inbox: `${host}/users/${index}/inbox`, sharedInbox: index % 2 === 0 ? `${host}/inbox` : undefined, checkedAt }]);
    await records.replace(kept);
    const asked = [ ...kept.map(([ id ]): string => id), `${host}/users/unknown` ];
    const found = await records.lookup(asked);
    expect(found.size).toBe(150);
    expect(found.has(`${host}/users/unknown`)).toBe(false);
    expect(found.get(`${host}/users/4`)).toEqual({ inbox: `${host}/users/4/inbox`, sharedInbox: `${host}/inbox`, checkedAt });
    expect(found.get(`${host}/users/7`)).toEqual({ inbox: `${host}/users/7/inbox`, sharedInbox: undefined, checkedAt });
  });

  it('answers the newest endpoints after a replace, from another client too', async(): Promise<void> => {
    const first = new SparqlActorEndpointRecords(makeClient());
    await first.replace([[ `${host}/a`, { inbox: `${host}/a/inbox`, sharedInbox: `${host}/inbox`, checkedAt: Date.parse('2026-01-01T00:00:00Z') }]]);
    await first.replace([[ `${host}/a`, { inbox: `${host}/a/moved`, checkedAt: Date.parse('2026-02-01T00:00:00Z') }]]);
    const found = await new SparqlActorEndpointRecords(makeClient()).lookup([ `${host}/a` ]);
    expect(found.get(`${host}/a`)).toEqual({ inbox: `${host}/a/moved`, sharedInbox: undefined, checkedAt: Date.parse('2026-02-01T00:00:00Z') });
  });
});
