import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { ResourceChangeListener } from '../../../src/storage/ResourceChangeListener';
import { documentMetadata } from '../../../src/storage/ResourceGraphs';
import { ResourceGraphStore } from '../../../src/storage/ResourceGraphStore';
import { Skolemizer } from '../../../src/storage/Skolemizer';
import { DC_MODIFIED, LDP_RESOURCE, RDF_TYPE, RESPONSE_METADATA_GRAPH, XSD_DATETIME } from '../../../src/storage/StoreVocabulary';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../support/embeddedGraphs';

const { blankNode, literal, namedNode, quad } = DataFactory;

const BASE = 'https://pod.example/';
const EX = 'https://vocab.example/';

/** A listener that records what it is told, in order. */
class RecordingListener implements ResourceChangeListener {
  public readonly events: string[] = [];
  public created = (container: string, iri: string): void => {
    this.events.push(`created ${container} ${iri}`);
  };

  public updated = (iri: string): void => {
    this.events.push(`updated ${iri}`);
  };

  public deleted = (container: string | undefined, iri: string): void => {
    this.events.push(`deleted ${String(container)} ${iri}`);
  };
}

const says = (subject: string, value: string): Quad => quad(namedNode(subject), namedNode(`${EX}says`), literal(value));
/** Triples as sortable text, blank nodes by kind only (their labels are the store's). */
const text = (quads: readonly Quad[]): string[] => quads.map((entry): string =>
  [ entry.subject, entry.predicate, entry.object ].map((term): string => term.termType === 'BlankNode' ? '_' : term.value).join(' ')).sort();

describe('ResourceGraphStore (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let store: ResourceGraphStore;
  let listener: RecordingListener;
  let counter = 0;
  /** A fresh container (with metadata, so it exists) for each test. */
  let container: string;

  /** The stored dc:modified as an ISO string (the store writes xsd:dateTime in its canonical form). */
  async function modifiedOf(iri: string): Promise<string | undefined> {
    const stored = await store.readModified(iri);
    return stored === undefined ? undefined : new Date(stored).toISOString();
  }

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  beforeEach(async(): Promise<void> => {
    listener = new RecordingListener();
    store = new ResourceGraphStore(graphs.client, new Skolemizer(BASE), listener);
    counter += 1;
    container = `${BASE}c${counter}/`;
    await new ResourceGraphStore(graphs.client, new Skolemizer(BASE)).write(container, undefined,
      documentMetadata(container, '2020-01-01T00:00:00.000Z'));
  });

  it('makes the metadata of a document: an ldp:Resource with its dc:modified', (): void => {
    expect(text(documentMetadata(`${BASE}d`, new Date('2026-01-02T03:04:05.000Z')))).toEqual([
      `${BASE}d ${DC_MODIFIED} 2026-01-02T03:04:05.000Z`,
      `${BASE}d ${RDF_TYPE} ${LDP_RESOURCE}`,
    ].sort());
    const [ , modified ] = documentMetadata(`${BASE}d`, '2026-01-02T03:04:05.000Z');
    expect((modified.object as ReturnType<typeof literal>).datatype.value).toBe(XSD_DATETIME);
  });

  it('writes a document into its container and reads it back, data apart from metadata', async(): Promise<void> => {
    const iri = `${container}doc`;
    await store.write(iri, container, documentMetadata(iri, new Date()), [ says(iri, 'hello') ]);
    const read = await store.read(iri);
    expect(text(read!.data)).toEqual([ `${iri} ${EX}says hello` ]);
    expect(text(read!.metadata)).toContain(`${iri} ${RDF_TYPE} ${LDP_RESOURCE}`);
    expect(text(await store.readData(iri))).toEqual(text(read!.data));
    expect(text(await store.readMetadata(iri))).toEqual(text(read!.metadata));
    expect(await store.exists(iri)).toBe(true);
    expect(await store.children(container)).toEqual([ iri ]);
    expect(listener.events).toEqual([ `updated ${iri}` ]);
  });

  it('reads several resources in one query, each as read() gives it; one that does not exist is absent', async(): Promise<void> => {
    const [ first, second, absent ] = [ `${container}many-1`, `${container}many-2`, `${container}many-absent` ];
    await store.write(first, container, documentMetadata(first, new Date()), [ says(first, 'one') ]);
    await store.write(second, container, documentMetadata(second, new Date()));
    const select = jest.spyOn(graphs.client, 'select');
    let read: Awaited<ReturnType<ResourceGraphStore['readMany']>>;
    try {
      read = await store.readMany([ first, second, absent, first ]);
      expect(select).toHaveBeenCalledTimes(1);
    } finally {
      select.mockRestore();
    }
    expect([ ...read.keys() ].sort()).toEqual([ first, second ]);
    for (const iri of [ first, second ]) {
      const one = (await store.read(iri))!;
      expect(text(read.get(iri)!.data)).toEqual(text(one.data));
      expect(text(read.get(iri)!.metadata)).toEqual(text(one.metadata));
    }
  });

  it('reads nothing of a resource that does not exist', async(): Promise<void> => {
    const iri = `${container}absent`;
    expect(await store.read(iri)).toBeUndefined();
    expect(await store.readData(iri)).toEqual([]);
    expect(await store.readMetadata(iri)).toEqual([]);
    expect(await store.exists(iri)).toBe(false);
    expect(await store.readModified(iri)).toBeUndefined();
  });

  it('replaces data and metadata on a second write, and keeps the data when given none', async(): Promise<void> => {
    const iri = `${container}doc`;
    await store.write(iri, container, documentMetadata(iri, '2026-01-01T00:00:00.000Z'), [ says(iri, 'first') ]);
    await store.write(iri, container, documentMetadata(iri, '2026-02-01T00:00:00.000Z'), [ says(iri, 'second') ]);
    expect(text(await store.readData(iri))).toEqual([ `${iri} ${EX}says second` ]);
    expect(await modifiedOf(iri)).toBe('2026-02-01T00:00:00.000Z');
    await store.write(iri, container, documentMetadata(iri, '2026-03-01T00:00:00.000Z'));
    expect(text(await store.readData(iri))).toEqual([ `${iri} ${EX}says second` ]);
    expect(await modifiedOf(iri)).toBe('2026-03-01T00:00:00.000Z');
  });

  it('moves an existing container\'s modification date with a write of its documents\' data only', async(): Promise<void> => {
    const iri = `${container}doc`;
    await store.write(iri, container, documentMetadata(iri, new Date()), [ says(iri, 'x') ]);
    const touched = await store.readModified(container);
    expect(Date.parse(touched!)).toBeGreaterThan(Date.parse('2020-01-01T00:00:00.000Z'));
    // One dc:modified, replaced rather than added.
    expect((await store.readMetadata(container)).filter((entry): boolean => entry.predicate.value === DC_MODIFIED)).toHaveLength(1);
  });

  it('does not make a missing container look created when touching it', async(): Promise<void> => {
    const missing = `${container}missing/`;
    const iri = `${missing}doc`;
    await store.write(iri, missing, documentMetadata(iri, new Date()), [ says(iri, 'x') ]);
    expect(await store.exists(missing)).toBe(false);
    expect(await store.children(missing)).toEqual([ iri ]);
  });

  it('never stores CSS\'s response-only metadata', async(): Promise<void> => {
    const iri = `${container}doc`;
    await store.write(iri, container, [
      ...documentMetadata(iri, new Date()),
      quad(namedNode(iri), namedNode(`${EX}status`), literal('200'), namedNode(RESPONSE_METADATA_GRAPH)),
    ], [ says(iri, 'x') ]);
    expect(text(await store.readMetadata(iri)).some((line): boolean => line.includes(`${EX}status`))).toBe(false);
  });

  it('keeps blank nodes as blank nodes, distinct ones apart', async(): Promise<void> => {
    const iri = `${container}doc`;
    const first = blankNode('a');
    const second = blankNode('b');
    await store.write(iri, container, documentMetadata(iri, new Date()), [
      quad(namedNode(iri), namedNode(`${EX}has`), first),
      quad(namedNode(iri), namedNode(`${EX}has`), second),
      quad(first, namedNode(`${EX}name`), literal('one')),
      quad(second, namedNode(`${EX}name`), literal('two')),
    ]);
    const data = await store.readData(iri);
    const nodes = data.filter((entry): boolean => entry.predicate.value === `${EX}has`).map((entry): Quad['object'] => entry.object);
    expect(nodes.map((node): string => node.termType)).toEqual([ 'BlankNode', 'BlankNode' ]);
    expect(nodes[0].value).not.toBe(nodes[1].value);
    const names = nodes.map((node): string => data.find((entry): boolean => entry.subject.equals(node))!.object.value).sort();
    expect(names).toEqual([ 'one', 'two' ]);
  });

  it('creates a document in a container in one request, announcing a Create', async(): Promise<void> => {
    const iri = `${container}new`;
    const modified = new Date('2026-05-05T05:05:05.000Z');
    await store.createInContainer(container, iri, [ says(iri, 'made') ], documentMetadata(iri, modified), modified);
    expect(text(await store.readData(iri))).toEqual([ `${iri} ${EX}says made` ]);
    expect(await store.children(container)).toEqual([ iri ]);
    expect(await modifiedOf(container)).toBe('2026-05-05T05:05:05.000Z');
    expect(listener.events).toEqual([ `created ${container} ${iri}` ]);
  });

  it('writes several resources in one request, announcing a write that makes a member as its Create', async(): Promise<void> => {
    const made = `${container}made`;
    const changed = `${container}changed`;
    await store.writeMany([
      { iri: made, parent: container, metadata: documentMetadata(made, new Date()), data: [ says(made, 'a') ], created: true },
      { iri: changed, parent: container, metadata: documentMetadata(changed, new Date()), data: [ says(changed, 'b') ]},
    ]);
    expect((await store.children(container)).sort()).toEqual([ changed, made ]);
    const many = await store.readDataMany([ made, changed, made, `${container}none` ]);
    expect([ ...many.keys() ].sort()).toEqual([ changed, made ]);
    expect(text(many.get(made)!)).toEqual([ `${made} ${EX}says a` ]);
    expect(listener.events).toEqual([ `created ${container} ${made}`, `updated ${changed}` ]);
    expect((await store.readDataMany([])).size).toBe(0);
  });

  it('reads the data of some resources and the metadata of others in one query', async(): Promise<void> => {
    const iri = `${container}doc`;
    const other = `${container}other`;
    await store.write(iri, container, documentMetadata(iri, '2026-01-01T00:00:00.000Z'), [ says(iri, 'x') ]);
    await store.write(other, container, documentMetadata(other, '2026-01-02T00:00:00.000Z'), [ says(other, 'y') ]);
    const { data, metadata } = await store.readDataAndMetadata([ iri, `${container}none` ], [ other, `${container}none` ]);
    expect([ ...data.keys() ]).toEqual([ iri ]);
    expect(text(data.get(iri)!)).toEqual([ `${iri} ${EX}says x` ]);
    expect([ ...metadata.keys() ]).toEqual([ other ]);
    expect(text(metadata.get(other)!)).toEqual(text(await store.readMetadata(other)));
    await store.write(other, container, documentMetadata(other, new Date()), [ says(other, 'y'), quad(namedNode(other), namedNode(`${EX}tag`), literal('t')),
      quad(namedNode(`${other}#part`), namedNode(`${EX}says`), literal('z')) ]);
    const some = await store.readDataAndMetadata([ iri, other ], [], new Map([[ other, [ `${EX}says` ] ]]));
    expect(text(some.data.get(other)!)).toEqual([ `${other} ${EX}says y` ]);
    expect(text(some.data.get(iri)!)).toEqual([ `${iri} ${EX}says x` ]);
  });

  it('adds metadata without doubling it, and replaces it all on writeMetadata', async(): Promise<void> => {
    const iri = `${container}doc`;
    await store.write(iri, container, documentMetadata(iri, '2026-01-01T00:00:00.000Z'), [ says(iri, 'x') ]);
    const tag = quad(namedNode(iri), namedNode(`${EX}tag`), literal('t'));
    await store.addMetadata(iri, [ tag ]);
    await store.addMetadata(iri, [ tag ]);
    expect(text(await store.readMetadata(iri)).filter((line): boolean => line.includes(`${EX}tag`))).toHaveLength(1);
    expect(await modifiedOf(iri)).toBe('2026-01-01T00:00:00.000Z');
    await store.writeMetadata(iri, [ tag ]);
    expect(text(await store.readMetadata(iri))).toEqual([ `${iri} ${EX}tag t` ]);
    expect(text(await store.readData(iri))).toEqual([ `${iri} ${EX}says x` ]);
    expect(listener.events.slice(1)).toEqual([ `updated ${iri}`, `updated ${iri}`, `updated ${iri}` ]);
  });

  it('deletes a resource and its membership, touching its container', async(): Promise<void> => {
    const iri = `${container}doc`;
    const kept = `${container}kept`;
    await store.write(iri, container, documentMetadata(iri, new Date()), [ says(iri, 'x') ]);
    await store.write(kept, container, documentMetadata(kept, new Date()), [ says(kept, 'y') ]);
    await store.delete(iri, container);
    expect(await store.read(iri)).toBeUndefined();
    expect(await store.readData(iri)).toEqual([]);
    expect(await store.children(container)).toEqual([ kept ]);
    await store.delete(`${BASE}orphan`);
    expect(listener.events.slice(2)).toEqual([ `deleted ${container} ${iri}`, `deleted undefined ${BASE}orphan` ]);
  });

  it('finds the resources of a type whose own subject has a property', async(): Promise<void> => {
    const note = `${container}note`;
    const create = `${container}create`;
    const like = `${container}like`;
    for (const [ iri, type ] of [ [ create, `${EX}Create` ], [ like, `${EX}Like` ] ]) {
      await store.write(iri, container, documentMetadata(iri, new Date()), [
        quad(namedNode(iri), namedNode(RDF_TYPE), namedNode(type)),
        quad(namedNode(iri), namedNode(`${EX}object`), namedNode(note)),
      ]);
    }
    expect(await store.resourcesWith(`${EX}Create`, `${EX}object`, note)).toEqual([ create ]);
    expect(await store.resourcesWith(`${EX}Create`, `${EX}object`, `${container}other`)).toEqual([]);
  });

  it('reads a resource\'s metadata with which of the others exist, in one call', async(): Promise<void> => {
    const iri = `${container}doc`;
    await store.write(iri, container, documentMetadata(iri, new Date()), [ says(iri, 'x') ]);
    const { metadata, present } = await store.readMetadataAndPresence(iri, [ container, `${container}absent/` ]);
    expect(text(metadata)).toContain(`${iri} ${RDF_TYPE} ${LDP_RESOURCE}`);
    expect([ ...present ]).toEqual([ container ]);
    const none = await store.readMetadataAndPresence(`${container}absent`, []);
    expect(none.metadata).toEqual([]);
    expect(none.present.size).toBe(0);
  });

  describe('container pages', (): void => {
    async function fill(names: string[]): Promise<string[]> {
      await store.writeMany(names.map((name): { iri: string; parent: string; metadata: Quad[]; data: Quad[] } => {
        const iri = `${container}${name}`;
        return { iri, parent: container, metadata: documentMetadata(iri, new Date()), data: [ says(iri, name) ]};
      }));
      return names.map((name): string => `${container}${name}`);
    }

    it('lists members added together by IRI, highest first, with their triples, in keyset pages', async(): Promise<void> => {
      const [ a, b, c, d, e ] = await fill([ 'a', 'b', 'c', 'd', 'e' ]);
      const first = await store.readContainerPage(container, 2);
      expect(first!.members.map((member): string => member.iri)).toEqual([ e, d ]);
      expect(text(first!.members[0].data)).toEqual([ `${e} ${EX}says e` ]);
      expect(text(first!.metadata)).toContain(`${container} ${RDF_TYPE} ${LDP_RESOURCE}`);
      expect(first!.nextAfter).toEqual(expect.any(String));
      const second = await store.readContainerPage(container, 2, first!.nextAfter);
      expect(second!.members.map((member): string => member.iri)).toEqual([ c, b ]);
      const last = await store.readContainerPage(container, 2, second!.nextAfter);
      expect(last!.members.map((member): string => member.iri)).toEqual([ a ]);
      expect(last!.nextAfter).toBeUndefined();
    });

    it('has no next page when the members fit exactly, and no members in an empty container', async(): Promise<void> => {
      expect(await store.readContainerPage(container, 3)).toMatchObject({ members: [], nextAfter: undefined });
      await fill([ 'a', 'b' ]);
      expect((await store.readContainerPage(container, 2))!.nextAfter).toBeUndefined();
    });

    it('has no page for a container that does not exist', async(): Promise<void> => {
      expect(await store.readContainerPage(`${container}absent/`, 10)).toBeUndefined();
    });

    it('lists a member with no data with empty triples', async(): Promise<void> => {
      const iri = `${container}bare`;
      await store.write(iri, container, documentMetadata(iri, new Date()), []);
      const page = await store.readContainerPage(container, 10);
      expect(page!.members).toEqual([ { iri, data: []} ]);
      expect(await store.children(container)).toEqual([ iri ]);
    });
  });
});
