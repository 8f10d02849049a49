import { SparqlActorEndpointRecords } from '../../../src/storage/SparqlActorEndpointRecords';
import type { EmbeddedGraphs } from '../support/embeddedGraphs';
import { startEmbeddedGraphs } from '../support/embeddedGraphs';

const HOST = 'https://remote.example';

describe('SparqlActorEndpointRecords (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let records: SparqlActorEndpointRecords;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs('http://localhost:3000/');
    records = new SparqlActorEndpointRecords(graphs.client);
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  it('finds what it kept, shared inbox and time included, and nothing for unknown actors', async(): Promise<void> => {
    await records.replace([
      [ `${HOST}/a`, { inbox: `${HOST}/a/inbox`, sharedInbox: `${HOST}/inbox`, checkedAt: Date.parse('2026-01-01T00:00:00Z') }],
      [ `${HOST}/b`, { inbox: `${HOST}/b/inbox`, checkedAt: Date.parse('2026-01-02T00:00:00Z') }],
    ]);
    const found = await records.lookup([ `${HOST}/a`, `${HOST}/b`, `${HOST}/c` ]);
    expect([ ...found.keys() ].sort()).toEqual([ `${HOST}/a`, `${HOST}/b` ]);
    expect(found.get(`${HOST}/a`)).toEqual({ inbox: `${HOST}/a/inbox`, sharedInbox: `${HOST}/inbox`, checkedAt: Date.parse('2026-01-01T00:00:00Z') });
    expect(found.get(`${HOST}/b`)).toEqual({ inbox: `${HOST}/b/inbox`, sharedInbox: undefined, checkedAt: Date.parse('2026-01-02T00:00:00Z') });
  });

  it('replaces an actor\'s endpoints instead of adding to them', async(): Promise<void> => {
    await records.replace([[ `${HOST}/a`, { inbox: `${HOST}/a/new-inbox`, checkedAt: Date.parse('2026-02-01T00:00:00Z') }]]);
    expect((await records.lookup([ `${HOST}/a` ])).get(`${HOST}/a`)).toEqual(
      { inbox: `${HOST}/a/new-inbox`, sharedInbox: undefined, checkedAt: Date.parse('2026-02-01T00:00:00Z') });
  });

  it('asks the store nothing for nothing', async(): Promise<void> => {
    await expect(records.replace([])).resolves.toBeUndefined();
    expect((await records.lookup([])).size).toBe(0);
  });
});
