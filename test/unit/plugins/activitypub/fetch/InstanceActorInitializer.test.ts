import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GreedyReadWriteLocker, MemoryMapStorage, MemoryResourceLocker } from '@solid/community-server';
import { ActivityRepository } from '../../../../../src/plugins/activitypub/ActivityRepository';
import { ActivityStreamsSerializer } from '../../../../../src/plugins/activitypub/ActivityStreamsSerializer';
import { ActorKeyStore } from '../../../../../src/plugins/activitypub/ActorKeyStore';
import type { RemoteActorCache } from '../../../../../src/plugins/activitypub/fetch/RemoteActorCache';
import { INSTANCE_ACTOR, InstanceActorInitializer } from '../../../../../src/plugins/activitypub/fetch/InstanceActorInitializer';
import { DocumentLoader } from '../../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../../src/plugins/ldp/JsonLdParser';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../../support/embeddedGraphs';

const BASE = 'https://pod.example/';
const IRI = `${BASE}actors/instance`;

/** Stands in for the remote actor cache: records the signing keys it is given. */
class KeyRecorder {
  public readonly keys: { keyId: string; privateKey: KeyObject }[] = [];
  public useInstanceKey(key: { keyId: string; privateKey: KeyObject }): void {
    this.keys.push(key);
  }
}

/** The public key PEM the private key belongs to. */
const publicOf = (privateKey: KeyObject): string => createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }) as string;

describe('InstanceActorInitializer (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let dataDir: string;
  let keys: ActorKeyStore;
  let parser: JsonLdParser;
  let activities: ActivityRepository;

  function initializer(recorder: KeyRecorder, locker?: GreedyReadWriteLocker): InstanceActorInitializer {
    return new InstanceActorInitializer(BASE, keys, graphs.resources, parser, recorder as unknown as RemoteActorCache, locker);
  }

  beforeAll(async(): Promise<void> => {
    const loader = new DocumentLoader(BASE);
    parser = new JsonLdParser(BASE, loader);
    graphs = await startEmbeddedGraphs(BASE);
    activities = new ActivityRepository(graphs.resources, parser, new ActivityStreamsSerializer(loader));
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  beforeEach(async(): Promise<void> => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-instance-actor-'));
    keys = new ActorKeyStore(dataDir);
    await graphs.resources.delete(IRI, `${BASE}actors/`);
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates the instance actor with its key pair at first start, and signs with that key', async(): Promise<void> => {
    const recorder = new KeyRecorder();
    await initializer(recorder).handle();
    const actor = await activities.read(IRI);
    expect(actor).toMatchObject({ id: IRI, type: 'Application', name: 'Fedpod instance actor', preferredUsername: INSTANCE_ACTOR,
      manuallyApprovesFollowers: true });
    const publicKey = await keys.publicKeyPem(INSTANCE_ACTOR);
    expect((actor!.publicKey as Record<string, unknown>).publicKeyPem).toBe(publicKey);
    expect(await graphs.resources.children(`${BASE}actors/`)).toContain(IRI);
    expect(recorder.keys).toHaveLength(1);
    expect(recorder.keys[0].keyId).toBe(`${IRI}#main-key`);
    expect(publicOf(recorder.keys[0].privateKey)).toBe(publicKey);
  });

  it('keeps the actor and its key on later starts', async(): Promise<void> => {
    await initializer(new KeyRecorder()).handle();
    const privateKey = await keys.privateKeyPem(INSTANCE_ACTOR);
    const recorder = new KeyRecorder();
    await initializer(recorder).handle();
    expect(await keys.privateKeyPem(INSTANCE_ACTOR)).toBe(privateKey);
    expect(publicOf(recorder.keys[0].privateKey)).toBe(publicOf(createPrivateKey(privateKey!)));
  });

  it('makes both again when the actor document is missing, so the served key is the signing one', async(): Promise<void> => {
    await initializer(new KeyRecorder()).handle();
    const before = await keys.publicKeyPem(INSTANCE_ACTOR);
    await graphs.resources.delete(IRI, `${BASE}actors/`);
    const recorder = new KeyRecorder();
    await initializer(recorder).handle();
    const after = await keys.publicKeyPem(INSTANCE_ACTOR);
    expect(after).not.toBe(before);
    expect(((await activities.read(IRI))!.publicKey as Record<string, unknown>).publicKeyPem).toBe(after);
    expect(publicOf(recorder.keys[0].privateKey)).toBe(after);
  });

  it('makes both again when the key is missing', async(): Promise<void> => {
    await initializer(new KeyRecorder()).handle();
    await keys.remove(INSTANCE_ACTOR);
    const recorder = new KeyRecorder();
    await initializer(recorder).handle();
    const publicKey = await keys.publicKeyPem(INSTANCE_ACTOR);
    expect(publicKey).toBeDefined();
    expect(((await activities.read(IRI))!.publicKey as Record<string, unknown>).publicKeyPem).toBe(publicKey);
  });

  it('makes one key when nodes sharing the locker start together', async(): Promise<void> => {
    const locker = new GreedyReadWriteLocker(new MemoryResourceLocker(), new MemoryMapStorage());
    const recorders = [ new KeyRecorder(), new KeyRecorder(), new KeyRecorder() ];
    await Promise.all(recorders.map(async(recorder): Promise<void> => initializer(recorder, locker).handle()));
    const publicKey = await keys.publicKeyPem(INSTANCE_ACTOR);
    for (const recorder of recorders) {
      expect(publicOf(recorder.keys[0].privateKey)).toBe(publicKey);
    }
  });
});
