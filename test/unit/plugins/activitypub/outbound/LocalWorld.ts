import { ActorProfiles } from '../../../../../src/plugins/activitypub/ActorProfiles';
import { ActivityStreamsSerializer } from '../../../../../src/plugins/activitypub/ActivityStreamsSerializer';
import { actorDocument } from '../../../../../src/plugins/activitypub/ActorDocument';
import { ActorUrls } from '../../../../../src/plugins/activitypub/ActorUrls';
import { DocumentLoader } from '../../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../../src/plugins/ldp/JsonLdParser';
import { MemoryCollections } from '../inbound/MemoryCollections';
import { MemoryGraphStore } from '../MemoryGraphStore';

export const BASE = 'https://pod.example/';
export const AS = 'https://www.w3.org/ns/activitystreams';
export const PUBLIC = `${AS}#Public`;

/** A server's data for outbound effects: actors and objects in a memory store, real JSON-LD parsing. */
export class LocalWorld {
  public readonly urls = new ActorUrls(BASE);
  public readonly loader = new DocumentLoader(BASE);
  public readonly parser = new JsonLdParser(BASE, this.loader);
  public readonly graphs = new MemoryGraphStore();
  public readonly collections = new MemoryCollections();
  public readonly profiles = new ActorProfiles(BASE, this.graphs.store(), this.parser, new ActivityStreamsSerializer(this.loader));

  public async addActor(username: string): Promise<string> {
    const iri = this.urls.actor(username);
    this.graphs.put(iri, await this.parser.toQuads(actorDocument(this.urls, username, 'PEM', '2026-01-01T00:00:00Z'), iri));
    return iri;
  }

  public async addNote(id: string, author: string, to: string[]): Promise<string> {
    const iri = `${BASE}objects/${id}`;
    this.graphs.put(iri, await this.parser.toQuads({ '@context': AS, id: iri, type: 'Note', content: id,
      attributedTo: author, to }, iri));
    return iri;
  }
}
