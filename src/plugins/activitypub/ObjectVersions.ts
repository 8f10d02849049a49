import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { v7 as uuidv7 } from 'uuid';
import type { Collections } from '../../storage/Collections';
import { documentMetadata, type ResourceGraphs } from '../../storage/ResourceGraphs';
import { AS_NS } from './ActivityVocabulary';

const { namedNode, quad } = DataFactory;

/** One earlier version of an edited object: its text as it was, and since when. */
export interface ObjectVersion {
  content: string;
  summary: string;
  sensitive: boolean;
  /** When this version was made: the object's `updated`, else its `published`. */
  at: string;
  /** The version's triples, about `iri` (the object's own IRI). */
  data: Quad[];
}

/**
 * The versions an edit replaced, oldest first, for an edit's history (Mastodon's
 * /api/v1/statuses/:id/history). Each is kept as its own graph named `urn:fedpod:version:<uuid>`,
 * its triples about `<that name>#it` (so no query about the object, nor one that looks for graphs
 * about themselves, such as the replies to a post, sees an old version), listed in
 * the collection `urn:fedpod:versions:<object IRI>`, which no route serves.
 */
export class ObjectVersions {
  public constructor(
    private readonly store: ResourceGraphs,
    private readonly collections: Collections,
  ) {}

  /** Keeps `data`, the object's triples before an edit at `now`. */
  public async keep(iri: string, data: readonly Quad[], now: Date): Promise<void> {
    const version = `urn:fedpod:version:${uuidv7()}`;
    const subject = namedNode(`${version}#it`);
    const moved = data.map((entry): Quad => quad(entry.subject.value === iri ? subject : entry.subject,
      entry.predicate, entry.object));
    await this.store.write(version, undefined, documentMetadata(version, now), moved);
    await this.collections.add(this.listOf(iri), version, now);
  }

  /** The earlier versions of `iri`, oldest first (none when it was never edited). */
  public async of(iri: string): Promise<ObjectVersion[]> {
    const versions = await this.collections.all(this.listOf(iri));
    const data = await this.store.readDataMany(versions);
    return versions.map((version): ObjectVersion => {
      const quads = data.get(version) ?? [];
      const subject = `${version}#it`;
      const value = (name: string): string => quads.find((entry): boolean => entry.subject.value === subject &&
        entry.predicate.value === `${AS_NS}${name}`)?.object.value ?? '';
      return {
        content: value('content'),
        summary: value('summary'),
        sensitive: value('sensitive') === 'true',
        at: value('updated') || value('published'),
        data: quads.map((entry): Quad => quad(entry.subject.value === subject ? namedNode(iri) : entry.subject,
          entry.predicate, entry.object)),
      };
    });
  }

  private listOf(iri: string): string {
    return `urn:fedpod:versions:${iri}`;
  }
}
