import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { ResourceChangeListener } from './ResourceChangeListener';
import type { ContainerMember, ContainerPage, ResourceGraphs, ResourceWrite, StoredResource } from './ResourceGraphs';
import type { Bindings, SparqlClient } from './SparqlClient';
import { sparqlGraphBlock, sparqlIri, sparqlLiteral } from './SparqlTerms';
import type { PreparedUpdate } from './PreparedUpdate';
import type { Skolemizer } from './Skolemizer';
import { MemberIndex, type ExistingMembers } from './MemberIndex';
import { DC_MODIFIED, LDP_CONTAINS, metadataGraphOf, RESPONSE_METADATA_GRAPH, XSD_DATETIME } from './StoreVocabulary';

const { namedNode, literal, quad } = DataFactory;

/**
 * The storage layout, in SPARQL: one named graph per resource (graph IRI = resource IRI), its metadata in
 * the graph `meta:<iri>`, and `<container> ldp:contains <member>` in the container's graph. This is the
 * layout of CSS's own SPARQL accessor, so CSS's pipeline and Fedpod's fast paths read the same data.
 *
 * Every read is one query and every write is one update request (atomic in Fuseki, Oxigraph and Virtuoso).
 */
export class ResourceGraphStore implements ResourceGraphs {
  private readonly index: MemberIndex;

  /**
   * @param changes - Told of each write once it is stored (Solid notifications). CSS's own pipeline
   *   writes through an instance without it: CSS's store monitor announces those writes itself.
   * @param index - The paging index of containers; one per process, shared by every instance.
   */
  public constructor(
    private readonly client: SparqlClient,
    private readonly skolemizer: Skolemizer,
    private readonly changes?: ResourceChangeListener,
    index?: MemberIndex,
  ) {
    this.index = index ?? new MemberIndex(client);
  }

  /** Data and metadata of a resource in one query; undefined when it has no metadata (does not exist). */
  public async read(iri: string): Promise<StoredResource | undefined> {
    const graph = sparqlIri(iri);
    const meta = sparqlIri(metadataGraphOf(iri));
    const rows = await this.client.select(
      // Two explicit GRAPH blocks: Oxigraph evaluates `VALUES ?g { .. } GRAPH ?g` more slowly.
      `SELECT ?g ?s ?p ?o WHERE { { GRAPH ${graph} { ?s ?p ?o } BIND(${graph} AS ?g) } UNION { GRAPH ${meta} { ?s ?p ?o } BIND(${meta} AS ?g) } }`,
    );
    const data: Quad[] = [];
    const metadata: Quad[] = [];
    for (const row of rows) {
      (row.g.value === iri ? data : metadata).push(this.toQuad(row));
    }
    if (metadata.length === 0) {
      return undefined;
    }
    return { data: this.skolemizer.deskolemize(data), metadata: this.latestModified(iri, this.skolemizer.deskolemize(metadata)) };
  }

  public async readMany(iris: readonly string[]): Promise<Map<string, StoredResource>> {
    const { data, metadata } = await this.readDataAndMetadata(iris, iris);
    const found = new Map<string, StoredResource>();
    for (const [ iri, quads ] of metadata) {
      found.set(iri, { data: data.get(iri) ?? [], metadata: quads });
    }
    return found;
  }

  public async readMetadata(iri: string): Promise<Quad[]> {
    const rows = await this.client.select(
      `SELECT ?s ?p ?o WHERE { GRAPH ${sparqlIri(metadataGraphOf(iri))} { ?s ?p ?o } }`,
    );
    return this.latestModified(iri, this.skolemizer.deskolemize(rows.map((row): Quad => this.toQuad(row))));
  }

  /**
   * The metadata with one dc:modified, the latest, where the store holds several: two touches of a
   * container at once on a store without serializable updates (Virtuoso) each delete the old value
   * and add their own. The next touch replaces them all; until then the ETag and Last-Modified
   * follow the latest. Compared as dates: stores rewrite the text (`.000Z` becomes `Z`).
   */
  private latestModified(iri: string, metadata: Quad[]): Quad[] {
    const dates = metadata.filter((entry): boolean => entry.subject.value === iri && entry.predicate.value === DC_MODIFIED);
    if (dates.length < 2) {
      return metadata;
    }
    const latest = dates.reduce((best, entry): Quad => Date.parse(entry.object.value) > Date.parse(best.object.value) ? entry : best);
    return metadata.filter((entry): boolean => !dates.includes(entry) || entry === latest);
  }

  public async readData(iri: string): Promise<Quad[]> {
    const rows = await this.client.select(`SELECT ?s ?p ?o WHERE { GRAPH ${sparqlIri(iri)} { ?s ?p ?o } }`);
    return this.skolemizer.deskolemize(rows.map((row): Quad => this.toQuad(row)));
  }

  /**
   * The data of several resources in one query (a collection page's items), by IRI; a resource with
   * no data is absent from the map.
   */
  public async readDataMany(iris: readonly string[]): Promise<Map<string, Quad[]>> {
    return this.readGraphs(iris);
  }

  /**
   * The data of some resources and the metadata of others, in one query (an upload, the post it is
   * attached to and its file's metadata); a resource with none is absent from its map. `only` keeps
   * a resource's data to its own subject with those predicates (less to read and carry: a post's
   * addressing, not its content).
   */
  public async readDataAndMetadata(dataOf: readonly string[], metadataOf: readonly string[],
    only = new Map<string, readonly string[]>()): Promise<{ data: Map<string, Quad[]>; metadata: Map<string, Quad[]> }> {
    const graphs = await this.readGraphs([ ...dataOf, ...metadataOf.map(metadataGraphOf) ], only);
    const metadata = new Map<string, Quad[]>();
    for (const iri of new Set(metadataOf)) {
      const quads = graphs.get(metadataGraphOf(iri));
      if (quads) {
        metadata.set(iri, this.latestModified(iri, quads));
      }
    }
    const data = new Map<string, Quad[]>();
    for (const iri of dataOf) {
      const quads = graphs.get(iri);
      if (quads) {
        data.set(iri, quads);
      }
    }
    return { data, metadata };
  }

  /** The quads of several named graphs, by graph name, deskolemized; a graph with none is absent. */
  private async readGraphs(names: readonly string[], only = new Map<string, readonly string[]>()): Promise<Map<string, Quad[]>> {
    const unique = [ ...new Set(names) ];
    const found = new Map<string, Quad[]>();
    if (unique.length === 0) {
      return found;
    }
    // Explicit GRAPH blocks, as in read(): faster on Oxigraph than VALUES ?g.
    const blocks = unique.map((iri): string => {
      const predicates = only.get(iri);
      const pattern = predicates ?
        `?s ?p ?o FILTER(?s = ${sparqlIri(iri)} && ?p IN (${predicates.map(sparqlIri).join(', ')}))` :
        '?s ?p ?o';
      return `{ GRAPH ${sparqlIri(iri)} { ${pattern} } BIND(${sparqlIri(iri)} AS ?g) }`;
    });
    const rows = await this.client.select(`SELECT ?g ?s ?p ?o WHERE { ${blocks.join(' UNION ')} }`);
    for (const row of rows) {
      const quads = found.get(row.g.value) ?? [];
      quads.push(this.toQuad(row));
      found.set(row.g.value, quads);
    }
    for (const [ iri, quads ] of found) {
      found.set(iri, this.skolemizer.deskolemize(quads));
    }
    return found;
  }

  /** The resources of type `type` whose own subject has `predicate` `object` (e.g. the Creates of a note). */
  public async resourcesWith(type: string, predicate: string, object: string): Promise<string[]> {
    const rows = await this.client.select(
      `SELECT DISTINCT ?g WHERE { GRAPH ?g { ?g ${sparqlIri(predicate)} ${sparqlIri(object)} ; a ${sparqlIri(type)} } }`,
    );
    return rows.map((row): string => row.g.value);
  }

  /**
   * A resource's metadata and which of `others` exist, in one query (a write's checks: its parent
   * container, a container of the same name).
   */
  public async readMetadataAndPresence(iri: string, others: readonly string[]): Promise<{ metadata: Quad[]; present: Set<string> }> {
    const branches = [
      `{ GRAPH ${sparqlIri(metadataGraphOf(iri))} { ?s ?p ?o } }`,
      ...others.map((other): string =>
        `{ SELECT ?g WHERE { GRAPH ${sparqlIri(metadataGraphOf(other))} { ?x ?y ?z } BIND(${sparqlIri(other)} AS ?g) } LIMIT 1 }`),
    ];
    const rows = await this.client.select(`SELECT ?g ?s ?p ?o WHERE { ${branches.join(' UNION ')} }`);
    const present = new Set<string>();
    const metadata: Quad[] = [];
    for (const row of rows) {
      if (row.g) {
        present.add(row.g.value);
      } else {
        metadata.push(this.toQuad(row));
      }
    }
    return { metadata: this.skolemizer.deskolemize(metadata), present };
  }

  public async exists(iri: string): Promise<boolean> {
    return this.client.ask(`ASK { GRAPH ${sparqlIri(metadataGraphOf(iri))} { ?s ?p ?o } }`);
  }

  /** The IRIs of a container's members; `ordered` reads them all by IRI, in chunks, whatever their number. */
  public async children(container: string, ordered = false): Promise<string[]> {
    const graph = sparqlIri(container);
    const query = `SELECT ?m WHERE { GRAPH ${graph} { ${graph} ${sparqlIri(LDP_CONTAINS)} ?m } }`;
    const rows = ordered ? await this.client.selectAll(`${query} ORDER BY ?m`) : await this.client.select(query);
    return rows.map((row): string => row.m.value);
  }

  public async readMembers(container: string, predicate?: string, object?: string): Promise<ContainerMember[]> {
    const graph = sparqlIri(container);
    const filter = predicate && object ? `?m ${sparqlIri(predicate)} ${sparqlIri(object)} .` : '';
    const rows = await this.client.select(`SELECT ?m ?s ?p ?o WHERE {
  GRAPH ${graph} { ${graph} ${sparqlIri(LDP_CONTAINS)} ?m }
  GRAPH ?m { ${filter} ?s ?p ?o }
}`);
    const byIri = new Map<string, Quad[]>();
    for (const row of rows) {
      const member = row.m.value;
      const data = byIri.get(member) ?? [];
      byIri.set(member, data);
      data.push(quad(row.s as Quad['subject'], row.p as Quad['predicate'], row.o as Quad['object']));
    }
    return [ ...byIri ].map(([ iri, data ]): ContainerMember => ({ iri, data }));
  }

  /**
   * One page of a container with its members' triples, newest first: the container's metadata, the
   * page's members from the buckets of its paging index (MemberIndex: the cost follows the page, not
   * the container), then all those members' triples in one query (a VALUES join), never one per
   * member. (A single query joining the members with `GRAPH ?m` makes Oxigraph scan every graph.)
   * Members are ordered by when they were added, then by IRI; paged by keyset (`after` is an opaque
   * cursor naming the last member of the previous page), which stays correct while members are added.
   */
  public async readContainerPage(container: string, limit: number, after?: string): Promise<ContainerPage | undefined> {
    const cursor = after === undefined ? undefined : MemberIndex.parseCursor(after);
    const metadata = await this.readMetadata(container);
    if (metadata.length === 0) {
      return undefined;
    }
    const found = await this.index.collect(container, 'newest', limit + 1, cursor?.bucket,
      this.existingMembers(container),
      async(buckets, wanted): Promise<{ iri: string; bucket: number }[]> => {
        const filter = cursor && buckets.includes(cursor.bucket) ?
          `FILTER(?bucket != ${cursor.bucket} || STR(?member) < ${sparqlLiteral(literal(cursor.key))})` :
          '';
        const rows = await this.client.select(`SELECT ?member ?bucket WHERE { ${this.index.values(buckets)}
  ${this.index.memberPattern(container)} ${filter} } ORDER BY DESC(?bucket) DESC(STR(?member)) LIMIT ${wanted}`);
        return rows.map((row): { iri: string; bucket: number } => ({ iri: row.member.value, bucket: Number(row.bucket.value) }));
      });
    const page = found.slice(0, limit);
    const data = new Map<string, Quad[]>(page.map(({ iri }): [string, Quad[]] => [ iri, []]));
    if (page.length > 0) {
      const memberRows = await this.client.select(
        `SELECT ?m ?s ?p ?o WHERE { VALUES ?m { ${page.map(({ iri }): string => sparqlIri(iri)).join(' ')} } GRAPH ?m { ?s ?p ?o } }`,
      );
      for (const row of memberRows) {
        data.get(row.m.value)?.push(this.toQuad(row));
      }
    }
    const last = page.at(-1);
    return {
      metadata,
      members: page.map(({ iri }): ContainerMember => ({ iri, data: this.skolemizer.deskolemize(data.get(iri)!) })),
      nextAfter: found.length > limit && last ? MemberIndex.cursor(last.bucket, last.iri) : undefined,
    };
  }

  /**
   * Creates a document in a container: data, metadata, containment, and the container's new
   * modification date, as one update request.
   */
  public async createInContainer(container: string, iri: string, data: readonly Quad[], metadata: readonly Quad[],
    modified: Date): Promise<void> {
    const bucket = await this.index.bucketFor(container, this.existingMembers(container));
    await this.client.update([
      ...this.touch(container, modified),
      `INSERT DATA { ${[
        sparqlGraphBlock(namedNode(container), [ quad(namedNode(container), namedNode(LDP_CONTAINS), namedNode(iri)) ]),
        this.index.entries(container, iri, bucket),
        sparqlGraphBlock(namedNode(metadataGraphOf(iri)), this.storable(metadata)),
        ...data.length > 0 ? [ sparqlGraphBlock(namedNode(iri), this.skolemizer.skolemize(data)) ] : [],
      ].join('\n')} }`,
    ].join(' ;\n'));
    this.changes?.created(container, iri);
  }

  /**
   * Replaces a resource's data and metadata, adding it to its parent; CSS's writeDocument/writeContainer.
   * Writing a document's data also moves its container's modification date: the container's
   * representation embeds its members, so its ETag (and any cached listing) must change with them.
   */
  public async write(iri: string, parent: string | undefined, metadata: readonly Quad[], data?: readonly Quad[]): Promise<void> {
    await this.writeMany([{ iri, parent, metadata, data }]);
  }

  /**
   * Several write()s as one update request (so all of them or none): each resource is replaced in
   * turn, and each container whose documents were written is touched once.
   */
  public async writeMany(writes: readonly ResourceWrite[]): Promise<void> {
    const prepared = await this.prepareWrites(writes);
    await this.client.update(prepared.operations.join(' ;\n'));
    prepared.stored();
  }

  /**
   * The update operations of writeMany(), to send along with others in one update request (a
   * received activity with its inbox entries: CollectionStore.addAll), and what to call once they
   * are stored (the change notifications).
   */
  public async prepareWrites(writes: readonly ResourceWrite[]): Promise<PreparedUpdate> {
    const touched = new Set<string>();
    const operations: string[] = [];
    for (const { iri, parent, metadata, data } of writes) {
      if (data) {
        if (parent) {
          touched.add(parent);
        }
        operations.push(this.clearGraph(iri));
      }
      operations.push(this.clearGraph(metadataGraphOf(iri)));
      const blocks = [ sparqlGraphBlock(namedNode(metadataGraphOf(iri)), this.storable(metadata)) ];
      if (parent) {
        blocks.push(sparqlGraphBlock(namedNode(parent), [ quad(namedNode(parent), namedNode(LDP_CONTAINS), namedNode(iri)) ]));
      }
      if (data && data.length > 0) {
        blocks.push(sparqlGraphBlock(namedNode(iri), this.skolemizer.skolemize(data)));
      }
      operations.push(`INSERT DATA { ${blocks.join('\n')} }`);
      if (parent) {
        const bucket = await this.index.bucketFor(parent, this.existingMembers(parent));
        operations.push(this.index.addUnlessPresent(parent, iri, bucket));
      }
    }
    const modified = new Date();
    const touches = [ ...touched ].flatMap((container): string[] => this.touch(container, modified));
    return {
      operations: [ ...touches, ...operations ],
      stored: (): void => {
        for (const { iri, parent, created } of writes) {
          if (created && parent) {
            this.changes?.created(parent, iri);
          } else {
            this.changes?.updated(iri);
          }
        }
      },
    };
  }

  /** Adds metadata triples (an insert: existing ones stay, a repeated one is not doubled). */
  public async addMetadata(iri: string, metadata: readonly Quad[]): Promise<void> {
    await this.client.update(`INSERT DATA { ${sparqlGraphBlock(namedNode(metadataGraphOf(iri)), this.storable(metadata))} }`);
    this.changes?.updated(iri);
  }

  public async writeMetadata(iri: string, metadata: readonly Quad[]): Promise<void> {
    await this.client.update([
      this.clearGraph(metadataGraphOf(iri)),
      `INSERT DATA { ${sparqlGraphBlock(namedNode(metadataGraphOf(iri)), this.storable(metadata))} }`,
    ].join(' ;\n'));
    this.changes?.updated(iri);
  }

  public async delete(iri: string, parent?: string): Promise<void> {
    const operations = [ this.clearGraph(iri), this.clearGraph(metadataGraphOf(iri)) ];
    if (iri.endsWith('/')) {
      operations.push(this.index.drop(iri));
    }
    if (parent) {
      operations.push(...this.touch(parent, new Date()));
      operations.push(`DELETE DATA { ${sparqlGraphBlock(namedNode(parent),
        [ quad(namedNode(parent), namedNode(LDP_CONTAINS), namedNode(iri)) ])} }`);
      operations.push(this.index.remove(parent, iri));
    }
    await this.client.update(operations.join(' ;\n'));
    this.changes?.deleted(parent, iri);
  }

  /**
   * The update operation that moves an existing container's dc:modified to `modified`. A container
   * that does not exist (yet) is left alone: a lone dc:modified would make it look created.
   */
  private touch(container: string, modified: Date): string[] {
    const containerMeta = sparqlIri(metadataGraphOf(container));
    const subject = sparqlIri(container);
    const predicate = sparqlIri(DC_MODIFIED);
    const value = sparqlLiteral(literal(modified.toISOString(), namedNode(XSD_DATETIME)));
    return [
      `DELETE { GRAPH ${containerMeta} { ${subject} ${predicate} ?old } } INSERT { GRAPH ${containerMeta} { ${subject} ${predicate} ${value} } } WHERE { GRAPH ${containerMeta} { ${subject} ${predicate} ?old } }`,
    ];
  }

  /** The container's dc:modified as stored, in one small query; undefined when it has none. */
  public async readModified(iri: string): Promise<string | undefined> {
    const rows = await this.client.select(
      `SELECT (MAX(?o) AS ?latest) WHERE { GRAPH ${sparqlIri(metadataGraphOf(iri))} { ${sparqlIri(iri)} ${sparqlIri(DC_MODIFIED)} ?o } }`,
    );
    return rows[0]?.latest?.value;
  }

  /** A container's members in their order before the paging index, for MemberIndex to index them. */
  private existingMembers(container: string): ExistingMembers {
    return async(): Promise<string[]> => this.children(container, true);
  }

  private clearGraph(graph: string): string {
    // DELETE WHERE rather than DROP GRAPH: Virtuoso answers 500 to DROP of a missing graph.
    return `DELETE WHERE { GRAPH ${sparqlIri(graph)} { ?s ?p ?o } }`;
  }

  private storable(metadata: readonly Quad[]): Quad[] {
    return this.skolemizer.skolemize(metadata.filter((entry): boolean => entry.graph.value !== RESPONSE_METADATA_GRAPH));
  }

  private toQuad(row: Bindings): Quad {
    return quad(row.s as Quad['subject'], row.p as Quad['predicate'], row.o as Quad['object']);
  }
}
