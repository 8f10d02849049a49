import { GreedyReadWriteLocker, MemoryMapStorage, MemoryResourceLocker } from '@solid/community-server';
import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import { ActivityRepository } from '../../../../../src/plugins/activitypub/ActivityRepository';
import type { ReceivedState } from '../../../../../src/plugins/activitypub/ActivityRepository';
import { ActivityStreamsSerializer } from '../../../../../src/plugins/activitypub/ActivityStreamsSerializer';
import { InboxService } from '../../../../../src/plugins/activitypub/inbound/InboxService';
import { InboundPermissions } from '../../../../../src/plugins/activitypub/inbound/InboundPermissions';
import { SharedInboxAudience } from '../../../../../src/plugins/activitypub/inbound/SharedInboxAudience';
import type { RemoteActor } from '../../../../../src/plugins/activitypub/fetch/RemoteActorCache';
import { FollowAnswerReceivedEffect } from '../../../../../src/plugins/activitypub/inbound/FollowAnswerReceivedEffect';
import { FollowReceivedEffect } from '../../../../../src/plugins/activitypub/inbound/FollowReceivedEffect';
import { ReactionReceivedEffect } from '../../../../../src/plugins/activitypub/inbound/ReactionReceivedEffect';
import type { ActorProfiles } from '../../../../../src/plugins/activitypub/ActorProfiles';
import type { OutboxService } from '../../../../../src/plugins/activitypub/outbound/OutboxService';
import type { CollectionAddition } from '../../../../../src/storage/Collections';
import type { CollectionStore } from '../../../../../src/storage/CollectionStore';
import type { ResourceWrite } from '../../../../../src/storage/ResourceGraphs';
import type { ResourceGraphStore } from '../../../../../src/storage/ResourceGraphStore';
import { DocumentLoader } from '../../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../../src/plugins/ldp/JsonLdParser';
import { PermanentJobError } from '../../../../../src/plugins/queue/PermanentJobError';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../../support/embeddedGraphs';

const BASE = 'https://pod.example/';
const REMOTE = 'https://remote.example/users/carol';

/** Stand-in for RemoteActorCache (no network in unit tests): remote actors' documents by id, counting fetches. */
class KnownActors {
  public fetches = 0;
  public constructor(private readonly documents: Record<string, RemoteActor> = {}) {}
  public readonly peekActor = (): RemoteActor | undefined => undefined;
  public readonly getActor = async(iri: string): Promise<RemoteActor> => {
    this.fetches += 1;
    const document = this.documents[iri];
    if (!document) {
      throw new Error(`${iri} answered 404`);
    }
    return document;
  };
}

/** What the store holds for activities and collections, as the inbox sees it (stand-ins: no store runs in unit tests). */
class World {
  public readonly states = new Map<string, ReceivedState>();
  public readonly collections = new Map<string, Set<string>>();
  public readonly accepts: Json[] = [];
  /** Each store call yields, as a real store round trip does, so concurrent runs interleave. */
  private async tick(): Promise<void> {
    await new Promise((resolve): void => {
      setImmediate(resolve);
    });
  }

  public service(withLocker: boolean): InboxService {
    const activities = {
      receivedState: async(id: string): Promise<ReceivedState> => {
        await this.tick();
        return this.states.get(id) ?? 'absent';
      },
      storeRemote: async(activity: Json): Promise<void> => {
        await this.tick();
        this.states.set(activity.id as string, 'pending');
      },
      doneWrite: (iri: string): ResourceWrite => ({ iri, parent: undefined, metadata: []}),
      remoteWrites: async(activity: Json): Promise<ResourceWrite[]> => [{ iri: activity.id as string, parent: undefined, metadata: []}],
    } as unknown as ActivityRepository;
    const add = (collection: string, item: string): void => {
      const items = this.collections.get(collection) ?? new Set<string>();
      items.add(item);
      this.collections.set(collection, items);
    };
    const collections = {
      add: async(collection: string, item: string): Promise<void> => {
        await this.tick();
        add(collection, item);
      },
      // The activity written along with its inbox entries is done (pending is only ever stored by storeRemote).
      addAll: async(additions: CollectionAddition[], alongWith: ResourceWrite[] = []): Promise<void> => {
        await this.tick();
        for (const { collection, item } of additions) {
          add(collection, item);
        }
        for (const { iri } of alongWith) {
          this.states.set(iri, 'done');
        }
      },
      contains: async(collection: string, item: string): Promise<boolean> => {
        await this.tick();
        return this.collections.get(collection)?.has(item) ?? false;
      },
      collectionsContaining: async(): Promise<string[]> => [],
    } as unknown as CollectionStore;
    const outbox = {
      post: async(username: string, body: Json): Promise<unknown> => {
        await this.tick();
        this.accepts.push({ ...body, actor: username });
        return { id: `${BASE}activities/${this.accepts.length}` };
      },
    } as unknown as OutboxService;
    // Stand-in for the store-backed profiles: no actor here approves followers manually.
    const profiles = { values: async(): Promise<string[]> => [], isTrue: async(): Promise<boolean> => false } as unknown as ActorProfiles;
    const locker = withLocker ? new GreedyReadWriteLocker(new MemoryResourceLocker(), new MemoryMapStorage()) : undefined;
    return new InboxService({ baseUrl: BASE, activities, collections, permissions: new InboundPermissions(BASE, {} as ResourceGraphStore),
      audience: new SharedInboxAudience(BASE, new KnownActors()), effects: [ new FollowReceivedEffect(BASE, outbox, collections, profiles) ], locker });
  }
}

function follow(id: string, actor: string, object: string): Json {
  return { '@context': 'https://www.w3.org/ns/activitystreams', id, type: 'Follow', actor, object, to: [ object ]};
}

describe('InboxService', (): void => {
  it('accepts a remote Follow once when it is delivered several times at once', async(): Promise<void> => {
    const world = new World();
    // Five workers of one node at once; across nodes the locker is the Redis one (test/integration/cluster).
    const service = world.service(true);
    const activity = follow('https://remote.example/activities/1', REMOTE, `${BASE}actors/alice`);
    await Promise.all(Array.from({ length: 5 }, async(): Promise<void> => service.receive(structuredClone(activity), 'alice')));
    expect(world.accepts).toHaveLength(1);
    expect(world.states.get(activity.id as string)).toBe('done');
    expect([ ...world.collections.get(`${BASE}actors/alice/inbox`)! ]).toEqual([ activity.id ]);
    await service.receive(structuredClone(activity), 'alice');
    expect(world.accepts).toHaveLength(1);
  });

  it('runs the side effects again for an activity stored but left pending (a run cut short)', async(): Promise<void> => {
    const world = new World();
    const service = world.service(true);
    const activity = follow('https://remote.example/activities/2', REMOTE, `${BASE}actors/alice`);
    world.states.set(activity.id as string, 'pending');
    await service.receive(activity, 'alice');
    expect(world.accepts).toHaveLength(1);
    expect(world.states.get(activity.id as string)).toBe('done');
  });

  it('delivers a local Follow to its recipient once however often its job runs', async(): Promise<void> => {
    const world = new World();
    const service = world.service(true);
    const activity = follow(`${BASE}activities/3`, `${BASE}actors/bob`, `${BASE}actors/alice`);
    await Promise.all(Array.from({ length: 5 }, async(): Promise<void> => service.receiveLocal(structuredClone(activity), 'alice')));
    await service.receiveLocal(structuredClone(activity), 'alice');
    expect(world.accepts).toHaveLength(1);
    expect(world.accepts[0]).toMatchObject({ type: 'Accept', object: activity.id, actor: 'alice' });
  });

  it('needs the locker: without one, concurrent deliveries may each run the side effects', async(): Promise<void> => {
    const world = new World();
    const service = world.service(false);
    const activity = follow('https://remote.example/activities/4', REMOTE, `${BASE}actors/alice`);
    await Promise.all(Array.from({ length: 5 }, async(): Promise<void> => service.receive(structuredClone(activity), 'alice')));
    expect(world.accepts.length).toBeGreaterThan(1);
  });

  it('refuses two effects registered for one type, naming them', (): void => {
    const outbox = {} as OutboxService;
    expect((): InboxService => new InboxService({ baseUrl: BASE, activities: {} as ActivityRepository, collections: {} as CollectionStore,
      permissions: {} as InboundPermissions, audience: {} as SharedInboxAudience, effects: [
        new FollowReceivedEffect(BASE, outbox, {} as CollectionStore, {} as ActorProfiles),
        new FollowReceivedEffect(BASE, outbox, {} as CollectionStore, {} as ActorProfiles) ]})).toThrow('Two inbound effects for Follow: FollowReceivedEffect and FollowReceivedEffect');
  });

  describe('on the embedded store', (): void => {
    const AS = 'https://www.w3.org/ns/activitystreams';
    const ALICE = `${BASE}actors/alice`;
    const BOB = `${BASE}actors/bob`;
    const NOTE = `${BASE}objects/n1`;
    const GROUP = 'https://remote.example/groups/cats';
    let graphs: EmbeddedGraphs;
    let activities: ActivityRepository;
    let service: InboxService;
    let actors: KnownActors;
    let counter = 0;
    const remoteId = (kind: string): string => {
      counter += 1;
      return `https://remote.example/${kind}/${counter}`;
    };
    const inboxOf = async(username: string): Promise<string[]> => graphs.collections.all(`${BASE}actors/${username}/inbox`);

    beforeAll(async(): Promise<void> => {
      graphs = await startEmbeddedGraphs(BASE);
      const loader = new DocumentLoader(BASE);
      activities = new ActivityRepository(graphs.resources, new JsonLdParser(BASE, loader), new ActivityStreamsSerializer(loader));
      actors = new KnownActors({ [REMOTE]: { id: REMOTE, inbox: `${REMOTE}/inbox`, followers: `${REMOTE}/fans` }});
      service = new InboxService({ baseUrl: BASE, activities, collections: graphs.collections,
        permissions: new InboundPermissions(BASE, graphs.resources), audience: new SharedInboxAudience(BASE, actors), effects: [
          new ReactionReceivedEffect(BASE, graphs.collections),
          new FollowAnswerReceivedEffect(BASE, activities, graphs.collections),
        ]});
      // Alice follows Carol; Bob blocked her.
      await graphs.collections.add(`${ALICE}/following`, REMOTE);
      await graphs.collections.add(`${BOB}/blocked`, REMOTE);
    });

    afterAll(async(): Promise<void> => {
      await graphs.stop();
    });

    it.each([
      [ 'without an id', undefined ],
      [ 'with an id on another server than its sender\'s', 'https://elsewhere.example/likes/1' ],
      [ 'with an id on this server', `${BASE}activities/forged` ],
    ])('refuses an activity %s for good, storing nothing', async(what, id): Promise<void> => {
      const error = await service.receive({ '@context': AS, id, type: 'Like', actor: REMOTE, object: NOTE }, 'alice')
        .catch((caught: unknown): unknown => caught);
      expect(PermanentJobError.is(error)).toBe(true);
      expect((error as Error).message).toBe(`Refused an activity whose id ${String(id)} is not on its sender's server ${REMOTE}`);
      expect(await graphs.collections.count(`${NOTE}/likes`)).toBe(0);
      if (id) {
        expect(await activities.exists(id)).toBe(false);
      }
    });

    it('refuses for good a Create of this server\'s object, storing nothing', async(): Promise<void> => {
      const id = remoteId('create');
      const error = await service.receive({ '@context': AS, id, type: 'Create', actor: REMOTE,
        object: { id: `${BASE}objects/hijack`, type: 'Note', content: 'mine now' }}, 'alice').catch((caught: unknown): unknown => caught);
      expect(PermanentJobError.is(error)).toBe(true);
      expect((error as Error).message).toBe(`Refused Create ${id}: ${REMOTE} may not do that to ${BASE}objects/hijack`);
      expect(await activities.exists(id)).toBe(false);
      expect(await activities.exists(`${BASE}objects/hijack`)).toBe(false);
    });

    it('stores a Like of a local object, applies it, marks it done and lists it in the inbox that received it', async(): Promise<void> => {
      const id = remoteId('like');
      await service.receive({ '@context': AS, id, type: 'Like', actor: REMOTE, object: NOTE,
        signature: { type: 'RsaSignature2017', signatureValue: 'x' }}, 'alice');
      expect(await activities.receivedState(id)).toBe('done');
      expect(await graphs.collections.contains(`${NOTE}/likes`, id)).toBe(true);
      expect(await inboxOf('alice')).toContain(id);
      // Linked Data signatures are not checked, so not kept.
      expect((await activities.read(id))!.signature).toBeUndefined();
    });

    it('stores a Create, its Note and its inbox entries in one update, and only lists them again when delivered twice', async(): Promise<void> => {
      const id = remoteId('create');
      const note = remoteId('note');
      const create = { '@context': AS, id, type: 'Create', actor: REMOTE, to: [ ALICE, `${BASE}actors/hana` ],
        object: { id: note, type: 'Note', content: 'hello', attributedTo: REMOTE }};
      const update = jest.spyOn(graphs.client, 'update');
      try {
        await service.receive(structuredClone(create));
        expect(update).toHaveBeenCalledTimes(1);
      } finally {
        update.mockRestore();
      }
      expect(await activities.receivedState(id)).toBe('done');
      expect(await activities.read(note)).toMatchObject({ id: note, type: 'Note', content: 'hello' });
      expect(await inboxOf('alice')).toContain(id);
      expect(await inboxOf('hana')).toEqual([ id ]);
      await service.receive(structuredClone(create));
      expect(await inboxOf('hana')).toEqual([ id ]);
    });

    it('keeps the later version of a Note when its Create or an older Update arrives after a later Update', async(): Promise<void> => {
      const note = remoteId('note');
      const version = (content: string, extra: Json): Json => ({ id: note, type: 'Note', content, attributedTo: REMOTE, to: [ ALICE ],
        published: '2026-01-01T10:00:00Z', ...extra });
      const delivered = async(type: string, object: Json): Promise<void> =>
        service.receive({ '@context': AS, id: remoteId(type.toLowerCase()), type, actor: REMOTE, to: [ ALICE ], object }, 'alice');
      await delivered('Update', version('second edit', { updated: '2026-01-01T10:10:00Z' }));
      await delivered('Create', version('first words', {}));
      await delivered('Update', version('first edit', { updated: '2026-01-01T10:05:00Z' }));
      expect(await activities.read(note)).toMatchObject({ content: 'second edit' });
      // A later one still replaces it; so does one that says no time (as before).
      await delivered('Update', version('third edit', { updated: '2026-01-01T10:20:00Z' }));
      expect(await activities.read(note)).toMatchObject({ content: 'third edit' });
      await delivered('Update', { id: note, type: 'Note', content: 'undated', attributedTo: REMOTE, to: [ ALICE ]});
      expect(await activities.read(note)).toMatchObject({ content: 'undated' });
    });

    it('lists a shared-inbox delivery for those addressed, those following the sender, the object\'s actor; never a blocker', async(): Promise<void> => {
      const id = remoteId('note');
      await service.receive({ '@context': AS, id, type: 'Follow', actor: REMOTE, object: `${BASE}actors/dora`,
        to: [ BOB, `${AS}#Public` ], cc: [ `${BASE}actors/erin` ]});
      expect(await activities.receivedState(id)).toBe('done');
      for (const username of [ 'alice', 'dora', 'erin' ]) {
        expect(await inboxOf(username)).toContain(id);
      }
      expect(await inboxOf('bob')).not.toContain(id);
    });

    describe('a shared-inbox Create reaches the sender\'s local followers only when addressed to Public or to its followers', (): void => {
      // Alice follows the sender (REMOTE); Ines and Jude do not.
      const create = (to: string[], extra: Json = {}): Json => ({ '@context': AS, id: remoteId('create'), type: 'Create', actor: REMOTE, to,
        object: { id: remoteId('note'), type: 'Note', content: 'hi', attributedTo: REMOTE, to, ...extra }});
      const INES = `${BASE}actors/ines`;

      it.each([
        [ 'public', [ `${AS}#Public` ], [ 'alice' ]],
        [ 'public in its short form', [ 'as:Public' ], [ 'alice' ]],
        [ 'followers-only', [ `${REMOTE}/fans` ], [ 'alice' ]],
        [ 'direct to Ines', [ INES ], [ 'ines' ]],
        [ 'followers-only, naming Ines too', [ `${REMOTE}/fans`, INES ], [ 'alice', 'ines' ]],
        [ 'addressed to a collection that is not the sender\'s followers', [ `${REMOTE}/followers` ], []],
      ])('%s', async(_what, to, expected): Promise<void> => {
        const activity = create(to);
        await service.receive(activity);
        const reached: string[] = [];
        for (const username of [ 'alice', 'ines', 'jude' ]) {
          if ((await inboxOf(username)).includes(activity.id as string)) {
            reached.push(username);
          }
        }
        expect(reached).toEqual(expected);
      });

      it('a Mention tag names its addressee: mention-only reaches Jude, not the follower', async(): Promise<void> => {
        const activity = create([], { tag: [{ type: 'Mention', href: `${BASE}actors/jude`, name: '@jude' }]});
        await service.receive(activity);
        expect(await inboxOf('jude')).toContain(activity.id);
        expect(await inboxOf('alice')).not.toContain(activity.id);
      });

      it('the object\'s own addressing counts: a Create addressed only inside its Note', async(): Promise<void> => {
        const activity = create([]);
        (activity.object as Json).to = [ INES ];
        await service.receive(activity);
        expect(await inboxOf('ines')).toContain(activity.id);
        expect(await inboxOf('alice')).not.toContain(activity.id);
      });

      it('fetches the sender\'s actor only for what is neither public nor addressed to local actors alone', async(): Promise<void> => {
        const before = actors.fetches;
        await service.receive(create([ `${AS}#Public` ]));
        await service.receive(create([ INES ]));
        expect(actors.fetches).toBe(before);
        await service.receive(create([ `${REMOTE}/fans` ]));
        expect(actors.fetches).toBe(before + 1);
      });
    });

    it('does not make a direct post readable through a stranger\'s Announce of it', async(): Promise<void> => {
      const note = remoteId('note');
      const direct = { '@context': AS, id: remoteId('create'), type: 'Create', actor: REMOTE, to: [ `${BASE}actors/ines` ],
        object: { id: note, type: 'Note', content: 'for ines', attributedTo: REMOTE, to: [ `${BASE}actors/ines` ]}};
      await service.receive(direct);
      const announce = { '@context': AS, id: 'https://mallory.example/announces/1', type: 'Announce',
        actor: 'https://mallory.example/users/m', object: note, to: [ `${BASE}actors/jude` ]};
      await service.receive(announce);
      expect(await inboxOf('jude')).toContain(announce.id);
      expect(await graphs.collections.holdsItemAbout(`${BASE}actors/jude/inbox`, note)).toBe(false);
      expect(await graphs.collections.holdsItemAbout(`${BASE}actors/ines/inbox`, note)).toBe(true);
    });

    it('only lists again an activity delivered a second time, applying nothing twice', async(): Promise<void> => {
      const id = remoteId('like');
      const like = { '@context': AS, id, type: 'Like', actor: REMOTE, object: NOTE };
      await service.receive(structuredClone(like), 'alice');
      await graphs.collections.remove(`${NOTE}/likes`, id);
      await service.receive(structuredClone(like), 'frank');
      expect(await graphs.collections.contains(`${NOTE}/likes`, id)).toBe(false);
      expect(await inboxOf('frank')).toContain(id);
    });

    it('receives the activity a Group announces from its own server, as announced by the Group', async(): Promise<void> => {
      const announce = remoteId('announce');
      const inner = remoteId('like');
      await service.receive({ '@context': AS, id: announce, type: 'Announce', actor: GROUP,
        object: { id: inner, type: 'Like', actor: REMOTE, object: NOTE }}, 'alice');
      expect(await activities.receivedState(announce)).toBe('done');
      expect(await activities.receivedState(inner)).toBe('done');
      expect(await graphs.collections.contains(`${NOTE}/likes`, inner)).toBe(true);
    });

    it('does not trust an announced activity from another server, nor an Announce of an Announce', async(): Promise<void> => {
      const elsewhere = 'https://third.example/likes/1';
      await service.receive({ '@context': AS, id: remoteId('announce'), type: 'Announce', actor: GROUP,
        object: { id: elsewhere, type: 'Like', actor: 'https://third.example/users/x', object: NOTE }}, 'alice');
      expect(await activities.exists(elsewhere)).toBe(false);
      const nested = remoteId('announce');
      await service.receive({ '@context': AS, id: remoteId('announce'), type: 'Announce', actor: GROUP,
        object: { id: nested, type: 'Announce', actor: GROUP, object: NOTE }}, 'alice');
      expect(await activities.exists(nested)).toBe(false);
    });

    it('keeps the Announce when the activity it carries is refused', async(): Promise<void> => {
      const announce = remoteId('announce');
      const inner = remoteId('create');
      await service.receive({ '@context': AS, id: announce, type: 'Announce', actor: GROUP,
        object: { id: inner, type: 'Create', actor: REMOTE, object: { id: `${BASE}objects/taken`, type: 'Note' }}}, 'alice');
      expect(await activities.receivedState(announce)).toBe('done');
      expect(await activities.exists(inner)).toBe(false);
    });

    it('delivers a local activity to its recipient\'s inbox once, with its effect; one without id or actor is skipped', async(): Promise<void> => {
      const id = `${BASE}activities/local-like-${remoteId('x').split('/').pop()!}`;
      const like = { '@context': AS, id, type: 'Like', actor: BOB, object: NOTE };
      await service.receiveLocal(structuredClone(like), 'alice');
      expect(await inboxOf('alice')).toContain(id);
      expect(await graphs.collections.contains(`${NOTE}/likes`, id)).toBe(true);
      await graphs.collections.remove(`${NOTE}/likes`, id);
      await service.receiveLocal(structuredClone(like), 'alice');
      expect(await graphs.collections.contains(`${NOTE}/likes`, id)).toBe(false);
      await service.receiveLocal({ type: 'Like', actor: BOB, object: NOTE }, 'gina');
      await service.receiveLocal({ id: `${BASE}activities/anonymous`, type: 'Like', object: NOTE }, 'gina');
      expect(await inboxOf('gina')).toEqual([]);
    });
  });
});
