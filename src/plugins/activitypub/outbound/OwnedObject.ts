import type { ResourceGraphs, StoredResource } from '../../../storage/ResourceGraphs';
import { forbidden, notFound } from '../../../util/HttpErrors';
import { AS_NS } from '../ActivityVocabulary';

/** The stored object `objectId` when `actor` is its author (`attributedTo`); a 404 or 403 otherwise. */
export async function ownedObject(store: ResourceGraphs, objectId: string, actor: string, verb: string):
Promise<StoredResource> {
  const stored = await store.read(objectId);
  if (!stored) {
    throw notFound(`No object ${objectId} on this server.`);
  }
  const owner = stored.data.find((entry): boolean => entry.subject.value === objectId &&
    entry.predicate.value === `${AS_NS}attributedTo`)?.object.value;
  if (owner !== actor) {
    throw forbidden(`Only the object's owner can ${verb} it.`, 'not_owner');
  }
  return stored;
}
