import type { ServerResponse } from 'node:http';
import { getLoggerFor } from '@solid/community-server';
import type { ResourceGraphs } from '../../storage/ResourceGraphs';
import type { ResourceOwners } from '../../storage/ResourceOwners';
import { agentIri } from '../http/Agent';
import type { AccessPolicy } from './AccessPolicy';
import { wacAllow, WRITE_METHODS } from './AccessPolicy';
import type { Operation } from '../http/Operation';
import { refusal } from './AccessErrors';
import { AUXILIARY_SUFFIX } from '../../storage/StoreVocabulary';
import { messageOf } from '../../util/Errors';


/**
 * Public read and append (the plain `ldp` setup): anyone reads; anyone adds new resources under the
 * append containers (POST into them, or PUT/PATCH of a resource that does not exist yet, as WAC's
 * acl:Append with acl:default allows); changing or deleting an existing resource, or its `.acl` and
 * `.meta`, needs its owner, the authenticated agent that created it. Everything outside the append
 * containers is read-only. Creations by an authenticated agent are recorded as theirs; anonymous
 * creations have no owner and cannot be changed over HTTP.
 */
export class PublicAppendAccess implements AccessPolicy {
  private readonly logger = getLoggerFor(this);
  private readonly roots: string[];

  /**
   * @param baseUrl - Public base URL.
   * @param store - The resource graphs (does it exist?).
   * @param owners - Owner records.
   * @param appendContainers - Containers (relative to the base URL) where anyone may add resources.
   */
  public constructor(
    baseUrl: string,
    private readonly store: ResourceGraphs,
    private readonly owners: ResourceOwners,
    appendContainers: string[],
  ) {
    const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
    this.roots = appendContainers.map((path): string => new URL(path.endsWith('/') ? path : `${path}/`, base).href);
  }

  public async authorize(operation: Operation): Promise<void> {
    const { response, method, target: { iri: target }, agent } = operation;
    if (!WRITE_METHODS.has(method)) {
      // What anyone may do here (an owner may do more with what they created).
      const modes = this.inAppendArea(target, true) ? [ 'read', 'append' ] : [ 'read' ];
      operation.decide({ headers: { 'wac-allow': wacAllow(modes, modes) }});
      return;
    }
    const subject = target.replace(AUXILIARY_SUFFIX, '');
    const creator = agentIri(agent);
    if (method === 'POST' && subject === target && this.inAppendArea(target, true)) {
      if (creator !== undefined) {
        this.claimCreated(response, target, creator);
      }
      return;
    }
    if ((method === 'PUT' || method === 'PATCH') && subject === target && this.inAppendArea(target, false) &&
      !await this.exists(target)) {
      if (creator !== undefined) {
        // Claimed before the write: a failed write leaves the name reserved for its would-be owner.
        await this.owners.claim(target, creator);
      }
      return;
    }
    if (method === 'DELETE' && subject === target && !await this.exists(target)) {
      // Nothing to delete: the handler answers 404.
      return;
    }
    const owner = await this.owners.ownerOf(subject);
    if (owner === undefined || owner !== creator) {
      throw refusal(agent, owner === undefined ?
        'Only an owner may change or delete this resource, and it has none: it was created anonymously or by the server.' :
        'Only the owner may change or delete this resource.');
    }
  }

  /**
   * The handler chooses the new resource's name: its owner is recorded from the 201's Location
   * before the answer ends, so a client that got its 201 can change the resource at once.
   */
  private claimCreated(response: ServerResponse, target: string, creator: string): void {
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    response.end = ((...args: unknown[]): ServerResponse => {
      const location = response.getHeader('location');
      if (response.statusCode !== 201 || typeof location !== 'string') {
        return end(...args);
      }
      this.owners.claim(new URL(location, target).href, creator)
        .catch((error: unknown): void => {
          this.logger.error(`Could not record the owner of ${location}: ${messageOf(error)}`);
        })
        .finally((): void => {
          end(...args);
        });
      return response;
    }) as ServerResponse['end'];
  }

  private inAppendArea(iri: string, containerItself: boolean): boolean {
    // `POST /notes` is a POST to the container `/notes/`.
    const path = containerItself && !iri.endsWith('/') ? `${iri}/` : iri;
    return this.roots.some((root): boolean => path.startsWith(root) && (containerItself || path.length > root.length));
  }

  private async exists(iri: string): Promise<boolean> {
    return await this.store.exists(iri) || (!iri.endsWith('/') && await this.store.exists(`${iri}/`));
  }
}
