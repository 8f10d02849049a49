import type { Operation } from '../http/Operation';
import { AudienceAccess } from './AudienceAccess';

/**
 * What belongs to an object (`/objects/<id>/replies`, `likes`, `shares`): readable by whoever may
 * read the object itself, by the audience rules (AudienceAccess on the object; 404 to anyone else).
 */
export class ObjectPartAccess extends AudienceAccess {
  protected override targetOf(operation: Operation): string {
    const { iri } = operation.target;
    return iri.slice(0, iri.lastIndexOf('/'));
  }
}
