import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import type { Json } from '../../plugins/activitypub/ActivityJson';
import { addressingOf, idOf, isObject, typeOf } from '../../plugins/activitypub/ActivityJson';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import type { OutboxService } from '../../plugins/activitypub/outbound/OutboxService';
import type { Collections } from '../../storage/Collections';
import { badRequest, FedpodHttpError, forbidden, notFound } from '../../util/HttpErrors';
import { readJsonBody, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import type { OperationInput } from '../http/Operation';
import { ACTIVITY_JSON } from './ActivityContentType';

/** Activities whose withdrawal is an Undo (their side effects are undone and the Undo delivered). */
const UNDOABLE = new Set([ 'Follow', 'Like', 'Announce', 'Block' ]);

/**
 * LDP writes to the author's own ActivityPub objects and activities, kept consistent with ActivityPub
 * (the access step has already checked that the caller is the author):
 * - PUT of an object (JSON or JSON-LD): an Update through the outbox, delivered to its audience;
 * - DELETE of an object: a Delete through the outbox (a Tombstone stays, 410 on GET);
 * - DELETE of an activity: a Create deletes its object, a Follow, Like, Announce or Block is undone;
 *   the activity leaves the outbox.
 * Activities are not replaced (PUT 405); PATCH is refused (405): send the whole object with PUT.
 */
export class ObjectWriteHandler extends JsonHttpHandler {
  private readonly urls: ActorUrls;
  private readonly objects: string;
  private readonly activitiesPath: string;

  public constructor(
    baseUrl: string,
    private readonly outbox: OutboxService,
    private readonly activities: ActivityRepository,
    private readonly collections: Collections,
    private readonly maxBodyBytes = 1_048_576,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
    this.objects = new URL(this.urls.url('objects')).pathname;
    this.activitiesPath = new URL(this.urls.url('activities')).pathname;
  }

  public override async canHandle({ request }: OperationInput): Promise<void> {
    if (request.method !== 'PUT' && request.method !== 'DELETE' && request.method !== 'PATCH') {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const { path, iri } = operation.target;
    const isObjectPath = path.startsWith(this.objects);
    if (request.method === 'PATCH' || (request.method === 'PUT' && !isObjectPath)) {
      request.resume();
      throw new FedpodHttpError(405, 'method_not_allowed', isObjectPath ?
        'Change an object by PUTting the whole object (JSON), or by posting an Update to your outbox.' :
        'Activities are not replaced: change their object, or DELETE the activity to withdraw it.',
      { allow: isObjectPath ? 'GET, HEAD, PUT, DELETE' : 'GET, HEAD, DELETE' });
    }
    const username = operation.agent.username;
    if (username === undefined) {
      request.resume();
      throw forbidden('Only a local author changes objects here.', 'not_owner');
    }
    const stored = await this.activities.read(iri, operation.prefetched(iri));
    if (!stored) {
      request.resume();
      throw notFound(`Nothing at ${iri}`);
    }
    if (typeOf(stored) === 'Tombstone') {
      request.resume();
      throw new FedpodHttpError(410, 'gone', `${iri} was deleted.`);
    }
    const addressing = addressingOf(stored);
    let activity: Json;
    if (request.method === 'PUT') {
      activity = { type: 'Update', object: { ...await this.readObject(request), id: iri }, ...addressing };
    } else if (isObjectPath) {
      activity = { type: 'Delete', object: iri, ...addressing };
    } else {
      activity = await this.withdrawal(stored, iri, addressing);
    }
    const posted = await this.outbox.post(username, activity);
    if (!isObjectPath) {
      // Out of the outbox only once its withdrawal is posted: a failed one leaves it listed.
      await this.collections.remove(this.urls.collection(username, 'outbox'), iri);
    }
    sendJson(response, 200, posted.activity, { 'content-location': posted.id }, ACTIVITY_JSON);
  }

  private async withdrawal(stored: Json, iri: string, addressing: Json): Promise<Json> {
    const type = typeOf(stored) ?? '';
    if (type === 'Create') {
      const object = idOf(stored.object);
      if (!object) {
        throw badRequest('This Create has no object to delete.', 'invalid_activity');
      }
      return { type: 'Delete', object, ...addressing };
    }
    if (UNDOABLE.has(type)) {
      return { type: 'Undo', object: iri, ...addressing };
    }
    throw new FedpodHttpError(405, 'method_not_allowed', `A ${type} cannot be withdrawn.`, { allow: 'GET, HEAD' });
  }

  private async readObject(request: OperationInput['request']): Promise<Json> {
    const parsed = await readJsonBody(request, this.maxBodyBytes);
    if (!isObject(parsed) || !typeOf(parsed)) {
      throw badRequest('PUT the whole object, with its type.', 'invalid_object');
    }
    return parsed;
  }
}
