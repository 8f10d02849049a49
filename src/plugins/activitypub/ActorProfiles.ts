import type { Quad, Quad_Object, Quad_Subject } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { documentMetadata, type ResourceGraphs } from '../../storage/ResourceGraphs';
import type { JsonLdParser } from '../ldp/JsonLdParser';
import type { Json } from './ActivityJson';
import type { ActivityStreamsSerializer } from './ActivityStreamsSerializer';
import { ACTIVITYPUB_CONTEXT } from './ActivityStreamsSerializer';
import { ActorUrls } from './ActorUrls';

/**
 * Local actors' documents, changed property by property: a change replaces the actor's values of the
 * properties it names (with the nodes only they held, such as an icon) and keeps every other triple
 * exactly as stored (keys, endpoints, the Solid profile), so no round trip through JSON can lose them.
 */
export class ActorProfiles {
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly store: ResourceGraphs,
    private readonly parser: JsonLdParser,
    private readonly serializer: ActivityStreamsSerializer,
  ) {
    this.urls = new ActorUrls(baseUrl);
  }

  /** The actor's document as peers read it, or undefined when it has none. */
  public async read(actor: string): Promise<Json | undefined> {
    const stored = await this.store.read(actor);
    return stored ? await this.serializer.toJson(stored.data, actor) as Json : undefined;
  }

  /** The values of one property (a full IRI) of the actor, as stored. */
  public async values(actor: string, property: string): Promise<string[]> {
    return (await this.store.readData(actor)).filter((entry): boolean => entry.subject.value === actor &&
      entry.predicate.value === property).map((entry): string => entry.object.value);
  }

  /** Whether a boolean property (a full IRI) of the actor is true; Virtuoso answers booleans as "1". */
  public async isTrue(actor: string, property: string): Promise<boolean> {
    return (await this.values(actor, property)).some((value): boolean => value === 'true' || value === '1');
  }

  /**
   * The triples `changes` (JSON-LD properties of the actor, compacted with `context`, the ActivityPub
   * context by default) would give the actor, for checking before change() stores them.
   */
  public async parse(actor: string, changes: Json, context: unknown = ACTIVITYPUB_CONTEXT): Promise<Quad[]> {
    return this.parser.toQuads({ '@context': context, ...changes, id: actor }, actor, { fediverse: true });
  }

  /**
   * Replaces the actor's values of every property `changes` has a triple for (an empty array removes
   * one: list it in `cleared`, full IRIs) and returns the new document.
   */
  public async change(actor: string, changes: readonly Quad[], now: Date, cleared: readonly string[] = []): Promise<Json> {
    const stored = await this.store.read(actor);
    if (!stored) {
      throw new Error(`No actor document for ${actor}`);
    }
    const replaced = new Set([ ...cleared, ...changes.filter((entry): boolean => entry.subject.value === actor)
      .map((entry): string => entry.predicate.value) ]);
    const kept = withoutOrphanedNodes(stored.data.filter((entry): boolean =>
      !(entry.subject.value === actor && replaced.has(entry.predicate.value))));
    const data = [ ...kept, ...changes.map(relabelled) ];
    await this.store.write(actor, this.urls.url('actors'), documentMetadata(actor, now), data);
    return await this.serializer.toJson(data, actor) as Json;
  }
}

/**
 * The quad with its blank nodes renamed apart from the stored ones (deskolemized labels start with
 * `g`), so a new icon never merges with a kept node.
 */
function relabelled(entry: Quad): Quad {
  const rename = <T extends Quad_Subject | Quad_Object>(term: T): T =>
    term.termType === 'BlankNode' ? DataFactory.blankNode(`c${term.value}`) as unknown as T : term;
  return DataFactory.quad(rename(entry.subject), entry.predicate, rename(entry.object), entry.graph);
}

/** The quads without those about blank nodes nothing refers to any more (after their property was replaced). */
function withoutOrphanedNodes(quads: readonly Quad[]): Quad[] {
  let remaining = [ ...quads ];
  for (;;) {
    const referenced = new Set(remaining.filter((entry): boolean => entry.object.termType === 'BlankNode')
      .map((entry): string => entry.object.value));
    const next = remaining.filter((entry): boolean => entry.subject.termType !== 'BlankNode' ||
      referenced.has(entry.subject.value));
    if (next.length === remaining.length) {
      return next;
    }
    remaining = next;
  }
}
