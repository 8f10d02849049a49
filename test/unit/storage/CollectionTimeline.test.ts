import { CollectionStore } from '../../../src/storage/CollectionStore';
import type { MergedItem, MergedQuery } from '../../../src/storage/CollectionTimeline';
import { CollectionTimeline } from '../../../src/storage/CollectionTimeline';
import { MemberIndex } from '../../../src/storage/MemberIndex';
import { SparqlClient } from '../../../src/storage/SparqlClient';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../support/embeddedGraphs';

const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams#';
const XSD_DATETIME = 'http://www.w3.org/2001/XMLSchema#dateTime';
const TYPES = [ `${AS}Create`, `${AS}Announce` ];

/** The n-th second of a fixed day (a page's cursor is a time: the items here have distinct ones). */
const at = (second: number): Date => new Date(Date.UTC(2026, 0, 1) + (second * 1000));

interface Entry {
  iri: string;
  type: string;
  /** When it was added to each collection it is in. */
  added: Record<string, number>;
  published?: number;
}

describe('CollectionTimeline (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let counter = 0;
  let inbox: string;
  let outbox: string;
  let entries: Entry[];
  /** The bucket numbers each select asked about, one list per query. */
  let bucketsRead: number[][];
  let timeline: CollectionTimeline;
  let collections: CollectionStore;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  beforeEach((): void => {
    counter += 1;
    inbox = `${BASE}actors/u${counter}/inbox`;
    outbox = `${BASE}actors/u${counter}/outbox`;
    entries = [];
    bucketsRead = [];
    // Small buckets: a page spans several, and a round of reading ends inside the collections.
    const index = new MemberIndex(graphs.client, { bucketSize: 4 });
    collections = new CollectionStore(graphs.client, undefined, undefined, index);
    const client = graphs.client;
    const counting = Object.create(client) as SparqlClient;
    counting.select = async(query: string): ReturnType<SparqlClient['select']> => {
      const values = /VALUES \?bucket \{ ([\d ]+) \}/u.exec(query);
      if (values) {
        bucketsRead.push(values[1].trim().split(' ').map(Number));
      }
      return client.select(query);
    };
    timeline = new CollectionTimeline(counting, new MemberIndex(counting, { bucketSize: 4 }), collections);
  });

  /** Stores an activity and adds it to collections, in the order of the calls (as a server adds them). */
  async function add(name: string, added: Record<string, number>, published?: number, type = `${AS}Create`): Promise<void> {
    const iri = `${BASE}activities/u${counter}-${name}`;
    const date = published === undefined ? '' : `; <${AS}published> "${at(published).toISOString()}"^^<${XSD_DATETIME}>`;
    await graphs.client.update(`INSERT DATA { GRAPH <${iri}> { <${iri}> a <${type}> ${date} } }`);
    for (const [ collection, second ] of Object.entries(added)) {
      await collections.add(collection, iri, at(second));
    }
    entries.push({ iri, type, added, published });
  }

  /** What a page must hold: every listed item with its time, sorted as a timeline, then filtered. */
  function expected(query: Omit<MergedQuery, 'collections' | 'types'>): string[] {
    const timed = entries.filter((entry): boolean => TYPES.includes(entry.type)).map((entry): MergedItem => {
      const added = Math.max(...Object.values(entry.added));
      return { iri: entry.iri, time: at(entry.published !== undefined && entry.published < added ? entry.published : added) };
    }).filter((item): boolean => (!query.before || item.time < query.before) && (!query.after || item.time > query.after));
    timed.sort((first, second): number => first.time.getTime() - second.time.getTime() || first.iri.localeCompare(second.iri));
    const ordered = query.ascending ? timed : timed.reverse();
    return ordered.slice(0, query.limit).map((item): string => item.iri);
  }

  async function page(query: Omit<MergedQuery, 'collections' | 'types'>): Promise<string[]> {
    return (await timeline.page({ ...query, collections: [ inbox, outbox ], types: TYPES })).map((item): string => item.iri);
  }

  /** An inbox and an outbox written over 100 seconds, with late, future-dated, shared and other items. */
  async function fillBoth(): Promise<void> {
    for (let second = 0; second < 100; second += 1) {
      if (second % 3 === 0) {
        await add(`own${second}`, { [outbox]: second }, second);
      } else if (second % 7 === 0) {
        await add(`like${second}`, { [inbox]: second }, second, `${AS}Like`);
      } else if (second % 11 === 0) {
        // Delivered long after it was written: it belongs far back in the timeline.
        await add(`late${second}`, { [inbox]: second }, second - 60.25);
      } else if (second % 13 === 0) {
        // Another server's clock ahead: dated after it arrived, so it takes the time it arrived.
        await add(`ahead${second}`, { [inbox]: second }, second + 30);
      } else if (second % 17 === 0) {
        // To oneself: in both collections.
        await add(`self${second}`, { [outbox]: second, [inbox]: second }, second);
      } else if (second % 5 === 0) {
        await add(`boost${second}`, { [inbox]: second }, undefined, `${AS}Announce`);
      } else {
        await add(`in${second}`, { [inbox]: second }, second - 0.5);
      }
    }
  }

  it('merges the collections newest first and pages back through all of them exactly', async(): Promise<void> => {
    await fillBoth();
    const all = expected({ limit: 1000 });
    expect(all.length).toBeGreaterThan(70);
    const walked: string[] = [];
    let before: Date | undefined;
    for (let round = 0; round < 100; round += 1) {
      const query = { limit: 7, before };
      const items = await timeline.page({ ...query, collections: [ inbox, outbox ], types: TYPES });
      expect(items.map((item): string => item.iri)).toEqual(expected(query));
      if (items.length === 0) {
        break;
      }
      walked.push(...items.map((item): string => item.iri));
      before = items.at(-1)!.time;
    }
    expect(walked).toEqual(all);
  });

  it('answers since and min pages as the whole timeline would', async(): Promise<void> => {
    await fillBoth();
    for (const after of [ at(0), at(37), at(80), at(99) ]) {
      await expect(page({ limit: 5, after })).resolves.toEqual(expected({ limit: 5, after }));
      await expect(page({ limit: 5, after, ascending: true })).resolves.toEqual(expected({ limit: 5, after, ascending: true }));
      await expect(page({ limit: 5, after, before: at(90) })).resolves.toEqual(expected({ limit: 5, after, before: at(90) }));
    }
  });

  it('reads only the newest buckets for the newest page, however long the collections', async(): Promise<void> => {
    for (let second = 0; second < 400; second += 1) {
      await add(`in${second}`, { [second % 4 === 0 ? outbox : inbox]: second }, second);
    }
    await expect(page({ limit: 5 })).resolves.toEqual(expected({ limit: 5 }));
    // 100 buckets in all; a first round of two per collection, and one more where it ended inside the page.
    expect(bucketsRead.flat().length).toBeLessThanOrEqual(12);
  });

  it('indexes a collection made before the paging index on its first read', async(): Promise<void> => {
    await add('old', {}, 1);
    await graphs.client.update(`INSERT DATA { GRAPH <${inbox}> { <${inbox}> <${AS}items> <${entries[0].iri}> .
      <${entries[0].iri}> <urn:fedpod:ns:addedAt> "${at(1).toISOString()}"^^<${XSD_DATETIME}> } }`);
    entries[0].added = { [inbox]: 1 };
    await expect(page({ limit: 5 })).resolves.toEqual([ entries[0].iri ]);
  });
});
