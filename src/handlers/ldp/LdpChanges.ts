import type { ActivityEmitter } from '@solid/community-server';
import { AS, RepresentationMetadata, SOLID_AS } from '@solid/community-server';
import { DataFactory } from 'n3';

const { namedNode } = DataFactory;

type Activity = typeof AS.terms.Create | typeof AS.terms.Update | typeof AS.terms.Add;

/**
 * Tells CSS's store monitor (and so Solid notification subscribers) of a write a fast handler made
 * without CSS's store, with the events CSS's own store emits for it: the resource's Create or Update,
 * and its container's Add (with the new member as object).
 */
export class LdpChanges {
  /** @param emitter - CSS's MonitoringStore (`urn:solid-server:default:ResourceStore`); none: nobody listens. */
  public constructor(private readonly emitter?: ActivityEmitter) {}

  public created(container: string, iri: string): void {
    this.emit(iri, AS.terms.Create);
    this.emit(container, AS.terms.Add, iri);
  }

  public updated(iri: string): void {
    this.emit(iri, AS.terms.Update);
  }

  private emit(target: string, activity: Activity, object?: string): void {
    if (!this.emitter) {
      return;
    }
    const metadata = new RepresentationMetadata({ path: target });
    metadata.set(SOLID_AS.terms.activity, activity);
    if (object) {
      metadata.set(AS.terms.object, namedNode(object));
    }
    this.emitter.emit('changed', { path: target }, activity, metadata);
    this.emitter.emit(activity.value, { path: target }, metadata);
  }
}
