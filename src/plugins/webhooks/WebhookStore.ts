import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { documentMetadata, type ResourceGraphs } from '../../storage/ResourceGraphs';
import { RDF_TYPE, XSD_DATETIME } from '../../storage/StoreVocabulary';
import { WEBHOOK_TERMS } from './WebhookVocabulary';

const { namedNode, literal, quad } = DataFactory;

/** A webhook as stored: under its key, never its secret. */
export interface WebhookRecord {
  /** The record's IRI: `<containerUri><key>` (not the webhook URI). */
  iri: string;
  key: string;
  /** WebID of the user. */
  user: string;
  username: string;
  action: string;
  /** ISO 8601. */
  created: string;
}

/**
 * Webhook records in the triple store, one resource (graph) per webhook in the webhooks container:
 * `<containerUri><key> a fedpod:Webhook; fedpod:user <webId>; fedpod:username "..."; fedpod:action "...";
 * fedpod:created "..."^^xsd:dateTime`, where key = SHA-256 of the secret segment of the webhook URI.
 */
export class WebhookStore {
  public constructor(
    private readonly store: ResourceGraphs,
    public readonly containerUri: string,
  ) {}

  public iriOf(key: string): string {
    return `${this.containerUri}${key}`;
  }

  public async create(record: Omit<WebhookRecord, 'iri'>): Promise<WebhookRecord> {
    const iri = this.iriOf(record.key);
    const now = new Date(record.created);
    const subject = namedNode(iri);
    const data: Quad[] = [
      quad(subject, namedNode(RDF_TYPE), namedNode(WEBHOOK_TERMS.Webhook)),
      quad(subject, namedNode(WEBHOOK_TERMS.user), namedNode(record.user)),
      quad(subject, namedNode(WEBHOOK_TERMS.username), literal(record.username)),
      quad(subject, namedNode(WEBHOOK_TERMS.action), literal(record.action)),
      quad(subject, namedNode(WEBHOOK_TERMS.created), literal(record.created, namedNode(XSD_DATETIME))),
    ];
    const metadata = documentMetadata(iri, record.created);
    await this.store.createInContainer(this.containerUri, iri, data, metadata, now);
    return { ...record, iri };
  }

  /** The record stored under `key`, or undefined. One query. */
  public async find(key: string): Promise<WebhookRecord | undefined> {
    const iri = this.iriOf(key);
    const quads = await this.store.readData(iri);
    return this.toRecord(iri, key, quads);
  }

  public async delete(key: string): Promise<void> {
    await this.store.delete(this.iriOf(key), this.containerUri);
  }

  /** Every webhook of a user (or of everyone, for operators), oldest first. One query. */
  public async list(user?: string): Promise<WebhookRecord[]> {
    const members = user ?
      await this.store.readMembers(this.containerUri, WEBHOOK_TERMS.user, user) :
      await this.store.readMembers(this.containerUri);
    const records: WebhookRecord[] = [];
    for (const { iri, data } of members) {
      const record = this.toRecord(iri, iri.slice(this.containerUri.length), data);
      if (record) {
        records.push(record);
      }
    }
    return records.sort((left, right): number => left.created.localeCompare(right.created) || left.iri.localeCompare(right.iri));
  }

  private toRecord(iri: string, key: string, quads: Quad[]): WebhookRecord | undefined {
    const value = (predicate: string): string | undefined =>
      quads.find((entry): boolean => entry.subject.value === iri && entry.predicate.value === predicate)?.object.value;
    const user = value(WEBHOOK_TERMS.user);
    const username = value(WEBHOOK_TERMS.username);
    const action = value(WEBHOOK_TERMS.action);
    const created = value(WEBHOOK_TERMS.created);
    if (!user || !username || !action || !created) {
      return undefined;
    }
    return { iri, key, user, username, action, created };
  }
}
