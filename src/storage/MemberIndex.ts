import type { SparqlClient } from './SparqlClient';
import { sparqlIri } from './SparqlTerms';
import { FEDPOD_NS } from './StoreVocabulary';
import { InFlight } from '../util/InFlight';
import { InvalidCursorError } from './InvalidCursorError';

const IN_BUCKET = `${FEDPOD_NS}inBucket`;
const HAS_BUCKET = `${FEDPOD_NS}bucket`;

/** Which end of a list a page starts from. */
export type ListOrder = 'newest' | 'oldest';

/** The members of a list made before its index, oldest first (they are indexed on first use). */
export type ExistingMembers = () => Promise<string[]>;

interface Head {
  bucket: number;
  /** Members counted in the bucket (an estimate between two counts: rewrites of a member count too). */
  size: number;
  readAt: number;
}

export interface MemberIndexOptions {
  /** Members per bucket; a first page reads about `limit / bucketSize + 1` buckets. */
  bucketSize?: number;
  /**
   * How long a process trusts the head bucket it knows before reading it again (default 10 s):
   * another node may have moved on, and a member added to an old bucket would show a bucket late.
   * Each read is two queries, so a short time costs lists written now and then (inboxes, followers).
   */
  headTtlMs?: number;
  /** Lists whose head is kept in memory (the least recently used go first). */
  maxLists?: number;
}

/**
 * Numbered buckets of the members of a list (a container, a collection), in the order they were
 * added: `<member> fedpod:inBucket n` and the directory `<list> fedpod:bucket n`, in the graph
 * `urn:fedpod:index:<list>`. Why: no SPARQL store here range-scans an `ORDER BY ... LIMIT` (Oxigraph
 * keys terms by hash), so a page that sorts every member costs what the list costs. A page reads the
 * directory (one entry per `bucketSize` members), then the members of the few buckets it needs, each
 * an index lookup by a bound term: its cost follows the page, not the list.
 *
 * Pages are ordered by bucket, then by the list's own keys inside a bucket. One process fills buckets
 * in the order of its writes; with several nodes, a member may land in an older bucket than the
 * newest (when other nodes filled buckets within `headTtlMs`), which keeps paging exact and the
 * order newest-first to a bucket or so.
 */
export class MemberIndex {
  private readonly bucketSize: number;
  private readonly headTtlMs: number;
  private readonly maxLists: number;
  private readonly heads = new Map<string, Head>();
  private readonly loading = new InFlight<Head>();
  private readonly building = new InFlight<boolean>();

  public constructor(private readonly client: SparqlClient, options: MemberIndexOptions = {}) {
    this.bucketSize = options.bucketSize ?? 256;
    this.headTtlMs = options.headTtlMs ?? 10_000;
    this.maxLists = options.maxLists ?? 10_000;
  }

  /** An opaque page cursor: the bucket of a page's last row and that row's own keys (`key`). */
  public static cursor(bucket: number, key: string): string {
    return Buffer.from(`${bucket} ${key}`).toString('base64url');
  }

  /** The bucket and keys of a cursor made by cursor(); InvalidCursorError for anything else. */
  public static parseCursor(cursor: string): { bucket: number; key: string } {
    const match = /^(\d{1,15}) (.+)$/su.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!match) {
      throw new InvalidCursorError();
    }
    return { bucket: Number(match[1]), key: match[2] };
  }

  /** The graph holding the index of `list`. */
  public static graphOf(list: string): string {
    return `urn:fedpod:index:${list}`;
  }

  /** The bucket a member about to be added to `list` goes in. */
  public async bucketFor(list: string, existing: ExistingMembers): Promise<number> {
    let head = this.heads.get(list);
    if (!head || Date.now() - head.readAt > this.headTtlMs) {
      head = await this.loadHead(list, existing);
    }
    if (head.size >= this.bucketSize) {
      // Count again before opening a bucket: the estimate also counted rewrites of existing members.
      head = await this.loadHead(list, existing);
      if (head.size >= this.bucketSize) {
        head = { bucket: head.bucket + 1, size: 0, readAt: head.readAt };
        this.remember(list, head);
      }
    }
    head.size += 1;
    return head.bucket;
  }

  /**
   * Update operation that indexes a member unless it is indexed already (a rewrite keeps its place).
   * A COUNT, not FILTER NOT EXISTS: Virtuoso ignores a FILTER NOT EXISTS that is the whole WHERE.
   */
  public addUnlessPresent(list: string, member: string, bucket: number): string {
    const graph = sparqlIri(MemberIndex.graphOf(list));
    return `INSERT { ${this.entries(list, member, bucket)} }
WHERE { { SELECT (COUNT(*) AS ?indexed) WHERE { GRAPH ${graph} { ${sparqlIri(member)} ${sparqlIri(IN_BUCKET)} ?any } } } FILTER(?indexed = 0) }`;
  }

  /** The triples (a GRAPH block) that put `member` in `bucket`, for an update's INSERT part. */
  public entries(list: string, member: string, bucket: number): string {
    const graph = sparqlIri(MemberIndex.graphOf(list));
    return `GRAPH ${graph} { ${sparqlIri(member)} ${sparqlIri(IN_BUCKET)} ${this.number(bucket)} . ${sparqlIri(list)} ${sparqlIri(HAS_BUCKET)} ${this.number(bucket)} }`;
  }

  /** Update operation that takes a member out of the index (its bucket stays in the directory). */
  public remove(list: string, member: string): string {
    return `DELETE WHERE { GRAPH ${sparqlIri(MemberIndex.graphOf(list))} { ${sparqlIri(member)} ${sparqlIri(IN_BUCKET)} ?bucket } }`;
  }

  /** Update operation that drops the whole index of a list (the list itself is gone). */
  public drop(list: string): string {
    // DELETE WHERE rather than DROP GRAPH: Virtuoso answers 500 to DROP of a missing graph.
    this.heads.delete(list);
    return `DELETE WHERE { GRAPH ${sparqlIri(MemberIndex.graphOf(list))} { ?s ?p ?o } }`;
  }

  /** The graph pattern binding `?member` to the members of the buckets `?bucket` takes (bind it first). */
  public memberPattern(list: string, member = '?member', bucket = '?bucket'): string {
    return `GRAPH ${sparqlIri(MemberIndex.graphOf(list))} { ${member} ${sparqlIri(IN_BUCKET)} ${bucket} }`;
  }

  /** A VALUES block binding `variable` to the given bucket numbers. */
  public values(buckets: readonly number[], variable = '?bucket'): string {
    return `VALUES ${variable} { ${buckets.map((bucket): string => this.number(bucket)).join(' ')} }`;
  }

  /**
   * Reads a list page by page of buckets: from the bucket `from` (included, the bucket of a page's
   * cursor) or the end `order` names, a few buckets at a time, asking `read` for at most `wanted`
   * rows of those buckets in page order, until `wanted` rows are found or the buckets run out. The
   * number of buckets read doubles each round, so a list whose rows `read` mostly filters out (a
   * reader who may see few of them) takes a number of rounds that grows with the log of the gap.
   */
  public async collect<T>(list: string, order: ListOrder, wanted: number, from: number | undefined,
    existing: ExistingMembers, read: (buckets: number[], wanted: number) => Promise<T[]>): Promise<T[]> {
    let span = Math.ceil(wanted / this.bucketSize) + 1;
    let start = from;
    let inclusive = true;
    let built = false;
    const found: T[] = [];
    for (;;) {
      const buckets = await this.buckets(list, order, span, start, inclusive);
      if (buckets.length === 0 && start === undefined && !built) {
        built = true;
        if (await this.build(list, existing)) {
          continue;
        }
      }
      if (buckets.length === 0) {
        return found;
      }
      found.push(...await read(buckets, wanted - found.length));
      if (found.length >= wanted || buckets.length < span) {
        return found;
      }
      start = buckets.at(-1);
      inclusive = false;
      span *= 2;
    }
  }

  /**
   * At most `count` bucket numbers of `list` in page order, after the bucket `start` (from the end
   * `order` names when undefined), for a reader that walks the buckets itself (merging several
   * lists). The first read of a list made before the index indexes it, as collect() does.
   */
  public async bucketsAfter(list: string, order: ListOrder, count: number, start: number | undefined,
    existing: ExistingMembers): Promise<number[]> {
    const buckets = await this.buckets(list, order, count, start, false);
    if (buckets.length === 0 && start === undefined && await this.build(list, existing)) {
      return this.buckets(list, order, count, start, false);
    }
    return buckets;
  }

  /** Bucket numbers of the directory of `list`, in page order, from `start` on. */
  private async buckets(list: string, order: ListOrder, count: number, start: number | undefined, inclusive: boolean):
  Promise<number[]> {
    const graph = sparqlIri(MemberIndex.graphOf(list));
    const comparison = `${order === 'newest' ? '<' : '>'}${inclusive ? '=' : ''}`;
    const filter = start === undefined ? '' : `FILTER(?bucket ${comparison} ${this.number(start)})`;
    const rows = await this.client.select(`SELECT DISTINCT ?bucket WHERE { GRAPH ${graph} { ${sparqlIri(list)} ${sparqlIri(HAS_BUCKET)} ?bucket } ${filter} }
ORDER BY ${order === 'newest' ? 'DESC' : 'ASC'}(?bucket) LIMIT ${count}`);
    return rows.map((row): number => Number(row.bucket.value));
  }

  /** Reads the head bucket and its size; one read at a time per list. */
  private async loadHead(list: string, existing: ExistingMembers): Promise<Head> {
    return this.loading.run(list, async(): Promise<Head> => this.readHead(list, existing));
  }

  private async readHead(list: string, existing: ExistingMembers): Promise<Head> {
    const graph = sparqlIri(MemberIndex.graphOf(list));
    const maxQuery = `SELECT (MAX(?bucket) AS ?head) WHERE { GRAPH ${graph} { ${sparqlIri(list)} ${sparqlIri(HAS_BUCKET)} ?bucket } }`;
    let rows = await this.client.select(maxQuery);
    if (!rows[0]?.head && await this.build(list, existing)) {
      rows = await this.client.select(maxQuery);
    }
    const bucket = rows[0]?.head ? Number(rows[0].head.value) : 0;
    const counted = await this.client.select(`SELECT (COUNT(*) AS ?size) WHERE { ${this.memberPattern(list, '?member', this.number(bucket))} }`);
    const head = { bucket, size: Number(counted[0]?.size?.value ?? 0), readAt: Date.now() };
    this.remember(list, head);
    return head;
  }

  /**
   * Indexes the members of a list made before the index, in their order (`existing`, oldest first);
   * false when there are none. A member that has an entry keeps it: another node may have added it
   * (and indexed it) since this node found no directory, or a build that stopped half-way indexed it.
   * Nothing is cleared, so nothing another node wrote meanwhile is lost. The directory is written
   * last, so another process that reads the list meanwhile finds no directory and builds too; both
   * builds give a member the same bucket, and the second finds its entry and leaves it.
   */
  private async build(list: string, existing: ExistingMembers): Promise<boolean> {
    return this.building.run(list, async(): Promise<boolean> => this.buildOnce(list, existing));
  }

  private async buildOnce(list: string, existing: ExistingMembers): Promise<boolean> {
    const members = await existing();
    if (members.length === 0) {
      return false;
    }
    const graph = sparqlIri(MemberIndex.graphOf(list));
    const inBucket = sparqlIri(IN_BUCKET);
    const chunk = 5000;
    for (let start = 0; start < members.length; start += chunk) {
      const rows = members.slice(start, start + chunk).map((member, offset): string =>
        `(${sparqlIri(member)} ${this.number(Math.floor((start + offset) / this.bucketSize))})`);
      // OPTIONAL and !BOUND rather than FILTER NOT EXISTS, which Virtuoso ignored in other updates here.
      await this.client.update(`INSERT { GRAPH ${graph} { ?member ${inBucket} ?bucket } }
WHERE { VALUES (?member ?bucket) { ${rows.join(' ')} } OPTIONAL { GRAPH ${graph} { ?member ${inBucket} ?indexed } } FILTER(!BOUND(?indexed)) }`);
    }
    const last = Math.floor((members.length - 1) / this.bucketSize);
    const directory = Array.from({ length: last + 1 }, (unused, bucket): string =>
      `${sparqlIri(list)} ${sparqlIri(HAS_BUCKET)} ${this.number(bucket)} .`);
    await this.client.update(`INSERT DATA { GRAPH ${graph} { ${directory.join('\n')} } }`);
    return true;
  }

  private remember(list: string, head: Head): void {
    this.heads.delete(list);
    this.heads.set(list, head);
    if (this.heads.size > this.maxLists) {
      this.heads.delete(this.heads.keys().next().value!);
    }
  }

  /** A bucket number as a SPARQL integer; only numbers this class made reach here. */
  private number(bucket: number): string {
    if (!Number.isSafeInteger(bucket) || bucket < 0) {
      throw new RangeError(`Not a bucket number: ${bucket}`);
    }
    return String(bucket);
  }
}
