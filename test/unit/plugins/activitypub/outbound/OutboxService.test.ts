import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import { ActivityRepository } from '../../../../../src/plugins/activitypub/ActivityRepository';
import { ActivityStreamsSerializer } from '../../../../../src/plugins/activitypub/ActivityStreamsSerializer';
import type { DeliveryScheduler } from '../../../../../src/plugins/activitypub/DeliveryScheduler';
import { OutboundActivityEffect } from '../../../../../src/plugins/activitypub/outbound/OutboundActivityEffect';
import type { OutgoingActivity } from '../../../../../src/plugins/activitypub/outbound/OutboundActivityEffect';
import { OutboxService } from '../../../../../src/plugins/activitypub/outbound/OutboxService';
import { DocumentLoader } from '../../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../../src/plugins/ldp/JsonLdParser';
import type { CollectionStore } from '../../../../../src/storage/CollectionStore';
import type { ResourceGraphStore } from '../../../../../src/storage/ResourceGraphStore';
import { forbidden } from '../../../../../src/util/HttpErrors';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../../support/embeddedGraphs';

const BASE = 'https://pod.example/';

describe('OutboxService', () => {
  it('refuses a post to the outbox of an actor without an actor document (a token that outlived its account), writing nothing', async() => {
    // Stand-ins recording calls: every write method must stay untouched.
    const store = {
      exists: jest.fn(async(): Promise<boolean> => false),
      createInContainer: jest.fn(), write: jest.fn(), read: jest.fn(), delete: jest.fn(),
    };
    const collections = { add: jest.fn(), remove: jest.fn() };
    const delivery = { schedule: jest.fn() };
    const service = new OutboxService(BASE, store as unknown as ResourceGraphStore, {} as JsonLdParser,
      collections as unknown as CollectionStore, delivery as unknown as DeliveryScheduler, []);
    await expect(service.post('ghost', { type: 'Note', content: 'hello', to: [ 'https://www.w3.org/ns/activitystreams#Public' ] }))
      .rejects.toMatchObject({ statusCode: 404, errorCode: 'unknown_actor' });
    expect(store.exists).toHaveBeenCalledWith(`${BASE}actors/ghost`);
    expect(store.createInContainer).not.toHaveBeenCalled();
    expect(store.write).not.toHaveBeenCalled();
    expect(collections.add).not.toHaveBeenCalled();
    expect(delivery.schedule).not.toHaveBeenCalled();
  });

  describe('on the embedded store', () => {
    const AS = 'https://www.w3.org/ns/activitystreams';
    const PUBLIC = `${AS}#Public`;
    const ALICE = `${BASE}actors/alice`;
    const CAROL = 'https://remote.example/users/carol';
    const DAN = 'https://remote.example/users/dan';
    let graphs: EmbeddedGraphs;
    let activities: ActivityRepository;
    let parser: JsonLdParser;
    let scheduled: { activity: Json; sender: string; recipients: string[] }[];
    let effect: RecordingEffect;
    let service: OutboxService;

    /** Records what it is given; refuses an activity whose summary is "refuse", as an effect refuses what an actor may not do. */
    class RecordingEffect extends OutboundActivityEffect {
      public readonly types = [ 'Like' ];
      public readonly seen: OutgoingActivity[] = [];
      public async apply(outgoing: OutgoingActivity): Promise<void> {
        if (outgoing.activity.summary === 'refuse') {
          throw forbidden('Not this one.', 'refused');
        }
        this.seen.push(outgoing);
        outgoing.activity.cc = [ DAN ];
      }
    }

    beforeAll(async() => {
      graphs = await startEmbeddedGraphs(BASE);
      const loader = new DocumentLoader(BASE);
      parser = new JsonLdParser(BASE, loader);
      activities = new ActivityRepository(graphs.resources, parser, new ActivityStreamsSerializer(loader));
      await graphs.put(ALICE, [ [ 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', `${AS}#Person`, 'iri' ] ]);
      await graphs.collections.add(`${ALICE}/followers`, CAROL);
      await graphs.collections.add(`${ALICE}/followers`, `${BASE}actors/bob`);
    });

    afterAll(async() => {
      await graphs.stop();
    });

    beforeEach(() => {
      scheduled = [];
      const delivery: DeliveryScheduler = { schedule: async(activity, sender, recipients): Promise<void> => {
        scheduled.push({ activity, sender, recipients });
      } };
      effect = new RecordingEffect();
      service = new OutboxService(BASE, graphs.resources, parser, graphs.collections, delivery, [ effect ]);
    });

    it('wraps a bare Note in a Create, mints both ids, stores both and lists the Create in the outbox', async() => {
      const { id, activity } = await service.post('alice', { '@context': AS, type: 'Note', content: 'hello', to: [ PUBLIC ], cc: [ `${ALICE}/followers` ]});
      expect(id).toMatch(new RegExp(`^${BASE}activities/[^/]+$`, 'u'));
      expect(activity).toMatchObject({ id, type: 'Create', actor: ALICE, to: [ PUBLIC ], cc: [ `${ALICE}/followers` ]});
      const note = activity.object as Json;
      expect(note.id).toMatch(new RegExp(`^${BASE}objects/[^/]+$`, 'u'));
      expect(note).toMatchObject({ type: 'Note', content: 'hello', attributedTo: ALICE, published: activity.published, to: [ PUBLIC ]});
      expect(new Date(activity.published as string).toISOString()).toBe(activity.published);
      expect(await activities.read(note.id as string)).toMatchObject({ id: note.id, type: 'Note', content: 'hello', attributedTo: ALICE });
      expect(await activities.read(id)).toMatchObject({ id, type: 'Create', object: { id: note.id, content: 'hello' }});
      expect(await graphs.collections.contains(`${ALICE}/outbox`, id)).toBe(true);
      expect(await graphs.resources.children(`${BASE}objects/`)).toContain(note.id);
      expect(await graphs.resources.children(`${BASE}activities/`)).toContain(id);
    });

    it('delivers to the addressees, followers expanded, Public and the sender left out', async() => {
      const { activity } = await service.post('alice', { type: 'Note', content: 'x', to: [ PUBLIC, 'as:Public', ALICE ],
        cc: [ `${ALICE}/followers` ], bcc: [ DAN ]});
      expect(scheduled).toHaveLength(1);
      expect(scheduled[0].activity).toBe(activity);
      expect(scheduled[0].sender).toBe('alice');
      expect([ ...scheduled[0].recipients ].sort()).toEqual([ `${BASE}actors/bob`, CAROL, DAN ].sort());
    });

    it('schedules nothing for an activity addressed to nobody else', async() => {
      const { id } = await service.post('alice', { type: 'Note', content: 'diary', to: [ ALICE ]});
      expect(scheduled).toEqual([]);
      expect(await graphs.collections.contains(`${ALICE}/outbox`, id)).toBe(true);
    });

    it('delivers a reply to the author of the post it answers, addressed in cc of the Create and the Note', async() => {
      const parent = 'https://remote.example/notes/1';
      await graphs.put(parent, [ [ `${AS}#attributedTo`, DAN, 'iri' ] ]);
      const { activity } = await service.post('alice', { type: 'Note', content: 're', inReplyTo: parent, to: [ `${ALICE}/followers` ]});
      expect(activity.cc).toEqual([ DAN ]);
      expect((activity.object as Json).cc).toEqual([ DAN ]);
      expect([ ...scheduled[0].recipients ].sort()).toEqual([ `${BASE}actors/bob`, CAROL, DAN ].sort());
      // Named already: not twice.
      const again = await service.post('alice', { type: 'Note', content: 're', inReplyTo: parent, to: [ DAN ]});
      expect(again.activity.cc).toBeUndefined();
    });

    it('addresses a Follow without addressees to the followed actor', async() => {
      const { activity } = await service.post('alice', { type: 'Follow', object: CAROL });
      expect(activity.to).toEqual([ CAROL ]);
      expect(scheduled[0].recipients).toEqual([ CAROL ]);
    });

    it('runs the effect of the activity\'s type before storing, with what it completes', async() => {
      const { id, activity } = await service.post('alice', { type: 'Like', object: CAROL });
      expect(effect.seen).toHaveLength(1);
      expect(effect.seen[0]).toMatchObject({ username: 'alice', actor: ALICE, activity: { id, type: 'Like' }});
      expect(activity.cc).toEqual([ DAN ]);
      expect(scheduled[0].recipients).toEqual([ DAN ]);
      expect((await activities.read(id))!.cc).toBe(DAN);
    });

    it('stores and schedules nothing when the effect refuses', async() => {
      await expect(service.post('alice', { type: 'Like', object: CAROL, summary: 'refuse' }))
        .rejects.toMatchObject({ statusCode: 403, errorCode: 'refused' });
      expect(scheduled).toEqual([]);
      expect(effect.seen).toEqual([]);
    });

    it.each([
      [ 'a JSON array', [ { type: 'Note' } ], 400, 'invalid_activity', 'Post a JSON object: an activity or an object such as a Note.' ],
      [ 'a string', 'hello', 400, 'invalid_activity', 'Post a JSON object: an activity or an object such as a Note.' ],
      [ 'an object without a type', { content: 'x' }, 400, 'invalid_activity', 'The activity has no type.' ],
      [ 'another actor', { type: 'Note', actor: CAROL }, 403, 'actor_mismatch', `The actor must be the outbox's owner, ${ALICE}.` ],
      [ 'a Create without an object', { type: 'Create' }, 400, 'invalid_activity', 'A Create needs an object with a type.' ],
      [ 'a Create of an untyped object', { type: 'Create', object: { content: 'x' }}, 400, 'invalid_activity', 'A Create needs an object with a type.' ],
      [ 'an object attributed to another', { type: 'Note', attributedTo: CAROL }, 403, 'actor_mismatch', 'attributedTo must be the outbox\'s owner.' ],
      [ 'a Like of nothing', { type: 'Like' }, 400, 'invalid_activity', 'A Like needs an object.' ],
      [ 'an Undo of nothing', { type: 'Undo', object: { type: 'Like' }}, 400, 'invalid_activity', 'A Undo needs an object.' ],
    ])('refuses %s, storing nothing', async(what, body, statusCode, errorCode, message) => {
      const before = await graphs.collections.count(`${ALICE}/outbox`);
      await expect(service.post('alice', body)).rejects.toMatchObject({ statusCode, errorCode, message });
      expect(await graphs.collections.count(`${ALICE}/outbox`)).toBe(before);
      expect(scheduled).toEqual([]);
    });

    it('takes the outbox owner named as actor, by IRI or embedded', async() => {
      const { activity } = await service.post('alice', { type: 'Like', object: CAROL, actor: { id: ALICE, type: 'Person' }});
      expect(activity.actor).toBe(ALICE);
    });

    it('refuses two effects registered for one type, naming them', () => {
      expect(() => new OutboxService(BASE, graphs.resources, parser, graphs.collections, { schedule: async() => undefined },
        [ new RecordingEffect(), new RecordingEffect() ])).toThrow('Two outbound effects for Like: RecordingEffect and RecordingEffect');
    });
  });
});
