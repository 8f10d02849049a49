import type { Quad } from '@rdfjs/types';
import type { ResourceStore } from '@solid/community-server';
import { BasicRepresentation, getLoggerFor } from '@solid/community-server';
import { DataFactory } from 'n3';
import { CoalescingResourceWriter } from '../../../storage/CoalescingResourceWriter';
import { documentMetadata, type ResourceGraphs } from '../../../storage/ResourceGraphs';
import { RDF_TYPE, XSD_DATETIME } from '../../../storage/StoreVocabulary';
import type { WebhookAction, WebhookActionInput } from '../WebhookAction';
import { RDF_JSON, WEBHOOK_TERMS } from '../WebhookVocabulary';

const { namedNode, literal, quad } = DataFactory;

/**
 * `store-in-container`: the posted JSON is kept as a resource of the user's webhook data container,
 * `{base}webhook-data/<username>/` (created on first use), named after the job
 * (`.../<username>/<job id>`), so a job that runs twice writes the same resource once. Its triples,
 * as JSON-LD with the webhook context:
 *
 *   { "id": ".../webhook-data/alice/wh-…", "type": "WebhookPayload", "user": "<webId>",
 *     "received": "<ISO time>", "job": "wh-…", "data": <the posted JSON, an rdf:JSON literal> }
 *
 * Only the owner can read the container (the webhook-data route's PathOwnerAccess).
 */
export class StoreInContainerAction implements WebhookAction {
  protected readonly logger = getLoggerFor(this);
  private readonly root: string;
  private readonly ready = new Map<string, Promise<void>>();
  /** Payloads of jobs running side by side are stored together: one update request per group. */
  private readonly writer: CoalescingResourceWriter;

  /**
   * @param baseUrl - Public base URL.
   * @param store - The resource graphs.
   * @param resourceStore - CSS's resource store, to create containers as CSS makes them.
   * @param containerPath - The data root, relative to the base URL.
   * @param name - Action name.
   */
  public constructor(
    baseUrl: string,
    store: ResourceGraphs,
    private readonly resourceStore: ResourceStore,
    containerPath = 'webhook-data/',
    public readonly name = 'store-in-container',
  ) {
    this.writer = new CoalescingResourceWriter(store);
    const root = new URL(containerPath, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).href;
    this.root = root.endsWith('/') ? root : `${root}/`;
  }

  /** The container of a user's payloads. */
  public containerOf(username: string): string {
    return `${this.root}${encodeURIComponent(username)}/`;
  }

  public async run({ user, username, data, jobId, receivedAt }: WebhookActionInput): Promise<void> {
    const container = this.containerOf(username);
    await this.ensureContainer(container);
    const iri = `${container}${encodeURIComponent(jobId)}`;
    const subject = namedNode(iri);
    const now = new Date();
    const quads: Quad[] = [
      quad(subject, namedNode(RDF_TYPE), namedNode(WEBHOOK_TERMS.WebhookPayload)),
      quad(subject, namedNode(WEBHOOK_TERMS.user), namedNode(user)),
      quad(subject, namedNode(WEBHOOK_TERMS.job), literal(jobId)),
      quad(subject, namedNode(WEBHOOK_TERMS.received), literal(receivedAt, namedNode(XSD_DATETIME))),
      quad(subject, namedNode(WEBHOOK_TERMS.data), literal(JSON.stringify(data) ?? 'null', namedNode(RDF_JSON))),
    ];
    const metadata = documentMetadata(iri, now);
    // A write replaces: running the same job again leaves one resource (and announces it again).
    await this.writer.write({ iri, parent: container, metadata, data: quads, created: true });
  }

  private async ensureContainer(container: string): Promise<void> {
    let pending = this.ready.get(container);
    if (!pending) {
      pending = this.create(container).catch((error: unknown): never => {
        this.ready.delete(container);
        throw error;
      });
      this.ready.set(container, pending);
    }
    return pending;
  }

  private async create(container: string): Promise<void> {
    const identifier = { path: container };
    if (await this.resourceStore.hasResource(identifier)) {
      return;
    }
    try {
      await this.resourceStore.setRepresentation(identifier, new BasicRepresentation([], identifier));
      this.logger.info(`Created webhook data container ${container}`);
    } catch (error: unknown) {
      // Another process made it meanwhile.
      if (!await this.resourceStore.hasResource(identifier)) {
        throw error;
      }
    }
  }
}
