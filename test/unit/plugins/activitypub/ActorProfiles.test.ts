import { ActorProfiles } from '../../../../src/plugins/activitypub/ActorProfiles';
import { ActivityStreamsSerializer } from '../../../../src/plugins/activitypub/ActivityStreamsSerializer';
import { actorDocument } from '../../../../src/plugins/activitypub/ActorDocument';
import { ActorUrls } from '../../../../src/plugins/activitypub/ActorUrls';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../src/plugins/ldp/JsonLdParser';
import { MemoryGraphStore } from './MemoryGraphStore';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;
const AS = 'https://www.w3.org/ns/activitystreams#';

describe('ActorProfiles', (): void => {
  const loader = new DocumentLoader(BASE);
  const parser = new JsonLdParser(BASE, loader);
  let graphs: MemoryGraphStore;
  let profiles: ActorProfiles;

  beforeEach(async(): Promise<void> => {
    graphs = new MemoryGraphStore();
    profiles = new ActorProfiles(BASE, graphs.store(), parser, new ActivityStreamsSerializer(loader));
    const document = { ...actorDocument(new ActorUrls(BASE), 'alice', 'PEM', '2026-01-01T00:00:00Z'),
      icon: { type: 'Image', url: 'https://cdn.example/old.png' }};
    graphs.put(ALICE, await parser.toQuads(document, ALICE));
  });

  it('replaces the properties a change names and keeps every other triple as stored', async(): Promise<void> => {
    const before = graphs.resources.get(ALICE)!.data.filter((entry): boolean => entry.predicate.value !== `${AS}name`);
    const document = await profiles.change(ALICE, await profiles.parse(ALICE, { name: 'Alice A.' }), new Date());
    expect(document).toMatchObject({ id: ALICE, name: 'Alice A.', publicKey: { publicKeyPem: 'PEM' },
      icon: { url: 'https://cdn.example/old.png' }});
    const after = graphs.resources.get(ALICE)!.data;
    expect(after.filter((entry): boolean => entry.predicate.value === `${AS}name`).map((entry): string => entry.object.value))
      .toEqual([ 'Alice A.' ]);
    for (const kept of before) {
      expect(after).toContainEqual(kept);
    }
  });

  it('drops the nodes only a replaced property held (the old icon) and keeps the new one apart', async(): Promise<void> => {
    await profiles.change(ALICE, await profiles.parse(ALICE, { icon: { type: 'Image', url: 'https://cdn.example/new.png' }}),
      new Date());
    const urls = graphs.resources.get(ALICE)!.data.filter((entry): boolean => entry.predicate.value === `${AS}url` &&
      entry.subject.termType === 'BlankNode').map((entry): string => entry.object.value);
    expect(urls).toEqual([ 'https://cdn.example/new.png' ]);
    expect((await profiles.read(ALICE))!.icon).toEqual({ type: 'Image', url: 'https://cdn.example/new.png' });
  });

  it('clears the properties listed as cleared', async(): Promise<void> => {
    await profiles.change(ALICE, [], new Date(), [ `${AS}icon` ]);
    const document = (await profiles.read(ALICE))!;
    expect(document.icon).toBeUndefined();
    expect(graphs.resources.get(ALICE)!.data.some((entry): boolean => entry.subject.termType === 'BlankNode' &&
      entry.predicate.value === `${AS}url`)).toBe(false);
  });

  it('reads the stored values of one property', async(): Promise<void> => {
    expect(await profiles.values(ALICE, `${AS}manuallyApprovesFollowers`)).toEqual([ 'false' ]);
    expect(await profiles.values(`${BASE}actors/nobody`, `${AS}name`)).toEqual([]);
  });
});
