import { ActivityRepository } from '../../../../src/plugins/activitypub/ActivityRepository';
import { ActivityStreamsSerializer } from '../../../../src/plugins/activitypub/ActivityStreamsSerializer';
import { AudienceRules } from '../../../../src/plugins/activitypub/AudienceRules';
import { ObjectThreads } from '../../../../src/plugins/activitypub/ObjectThreads';
import { ObjectVersions } from '../../../../src/plugins/activitypub/ObjectVersions';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../src/plugins/ldp/JsonLdParser';
import { documentMetadata } from '../../../../src/storage/ResourceGraphs';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../support/embeddedGraphs';

const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams';
const PUBLIC = `${AS}#Public`;
const ALICE = `${BASE}actors/alice`;
const BOB = `${BASE}actors/bob`;
const CAROL = 'https://remote.example/users/carol';

describe('ObjectThreads', () => {
  let graphs: EmbeddedGraphs;
  let parser: JsonLdParser;
  let threads: ObjectThreads;

  async function store(iri: string, document: Record<string, unknown>): Promise<void> {
    const data = await parser.toQuads({ '@context': AS, id: iri, ...document }, iri, { fediverse: true });
    await graphs.resources.write(iri, `${BASE}objects/`, documentMetadata(iri, new Date()), data);
  }

  beforeAll(async() => {
    graphs = await startEmbeddedGraphs(BASE);
    parser = new JsonLdParser(BASE, new DocumentLoader(BASE));
    threads = new ObjectThreads(BASE, graphs.client, graphs.resources, new AudienceRules(graphs.resources, graphs.collections, BASE),
      graphs.collections);
  });

  afterAll(async() => {
    await graphs.stop();
  });

  it('lists the replies each reader may read, oldest first, votes left out', async() => {
    const post = `${BASE}objects/post`;
    await store(post, { type: 'Question', attributedTo: ALICE, to: [ PUBLIC ], oneOf: [{ type: 'Note', name: 'yes' }]});
    await store(`${BASE}objects/r2`, { type: 'Note', content: 'later', attributedTo: BOB, inReplyTo: post, to: [ PUBLIC ],
      published: '2026-01-02T00:00:00Z' });
    await store(`${BASE}objects/r1`, { type: 'Note', content: 'first', attributedTo: BOB, inReplyTo: post, to: [ ALICE ],
      published: '2026-01-01T00:00:00Z' });
    await store(`${BASE}objects/vote`, { type: 'Note', name: 'yes', attributedTo: BOB, inReplyTo: post, to: [ ALICE ],
      published: '2026-01-03T00:00:00Z' });
    const iris = (items: { iri: string }[]): string[] => items.map((item) => item.iri);
    expect(iris(await threads.readableReplies(post, ALICE))).toEqual([ `${BASE}objects/r1`, `${BASE}objects/r2` ]);
    expect(iris(await threads.readableReplies(post, undefined))).toEqual([ `${BASE}objects/r2` ]);
    expect(iris(await threads.readableReplies(post, CAROL))).toEqual([ `${BASE}objects/r2` ]);
    expect(iris(await threads.replies(post, true))).toContain(`${BASE}objects/vote`);
  });

  it('finds local public posts by hashtag, in any case, newest first', async() => {
    const tag = [{ type: 'Hashtag', name: '#Tea' }];
    await store(`${BASE}objects/t1`, { type: 'Note', content: 'a', attributedTo: ALICE, tag, to: [ PUBLIC ], published: '2026-02-01T00:00:00Z' });
    await store(`${BASE}objects/t2`, { type: 'Note', content: 'b', attributedTo: ALICE, tag, cc: [ PUBLIC ], published: '2026-02-02T00:00:00Z' });
    await store(`${BASE}objects/t3`, { type: 'Note', content: 'c', attributedTo: ALICE, tag, to: [ `${ALICE}/followers` ],
      published: '2026-02-03T00:00:00Z' });
    expect((await threads.tagged('tea', 10)).map((item) => item.iri)).toEqual([ `${BASE}objects/t2`, `${BASE}objects/t1` ]);
    expect((await threads.tagged('TEA', 1, '2026-02-02T00:00:00Z')).map((item) => item.iri)).toEqual([ `${BASE}objects/t1` ]);
    expect(await threads.tagged('coffee', 10)).toEqual([]);
  });

  it('counts local posts (votes left out) and the actors who posted lately', async() => {
    const create = async(name: string, object: string, at: Date): Promise<void> => {
      const iri = `${BASE}activities/${name}`;
      await store(iri, { type: 'Create', actor: ALICE, object });
      await graphs.collections.add(`${ALICE}/outbox`, iri, at);
    };
    await create('c1', `${BASE}objects/t1`, new Date('2026-02-01T00:00:00Z'));
    await create('c2', `${BASE}objects/vote`, new Date('2026-02-01T00:00:00Z'));
    expect(await threads.localPosts()).toBe(1);
    expect(await threads.activeUsers(new Date('2026-01-01T00:00:00Z'))).toBe(1);
    expect(await threads.activeUsers(new Date('2026-03-01T00:00:00Z'))).toBe(0);
  });

  it('keeps the versions an edit replaced, unseen by replies', async() => {
    const versions = new ObjectVersions(graphs.resources, graphs.collections);
    const reply = `${BASE}objects/r2`;
    const before = await graphs.resources.readData(reply);
    await versions.keep(reply, before, new Date('2026-03-01T00:00:00Z'));
    const kept = await versions.of(reply);
    expect(kept).toEqual([ expect.objectContaining({ content: 'later', at: '2026-01-02T00:00:00Z' }) ]);
    const activities = new ActivityRepository(graphs.resources, parser, new ActivityStreamsSerializer(new DocumentLoader(BASE)));
    expect(await activities.read(reply)).toMatchObject({ content: 'later' });
    expect((await threads.replies(`${BASE}objects/post`)).map((item) => item.iri)).toEqual([ `${BASE}objects/r1`, reply ]);
  });
});
