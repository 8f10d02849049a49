import type { ActivityEmitter } from '@solid/community-server';
import { AS, RepresentationMetadata, SOLID_AS } from '@solid/community-server';
import { DataFactory } from 'n3';
import type { ResourceChangeListener } from '../../storage/ResourceChangeListener';

const { namedNode } = DataFactory;

type Activity = typeof AS.terms.Create | typeof AS.terms.Update | typeof AS.terms.Delete | typeof AS.terms.Add |
  typeof AS.terms.Remove;

/**
 * Tells CSS's store monitor (and so Solid notification subscribers) of the writes Fedpod makes
 * without CSS's store (fast LDP handlers, ActivityPub side effects, webhook actions), with the
 * events CSS's own store emits: the resource's Create, Update or Delete, and its container's Add or
 * Remove (with the member as object). With no subscription service in the setup nobody listens, and
 * an event costs an emit.
 *
 * Resources of other servers (received activities and objects, kept under their own ids) are not
 * announced: a subscription's topic is a resource of this server, so nobody can listen for them, and
 * each event would have CSS look up the channels of its topic (measured: 1% of the main thread's
 * time while an inbox took a flood of Creates).
 */
export class StoreChangeNotifier implements ResourceChangeListener {
  /**
   * @param emitter - CSS's MonitoringStore (`urn:solid-server:default:ResourceStore`).
   * @param baseUrl - The server's base URL: only resources under it are announced (all when not given).
   */
  public constructor(private readonly emitter: ActivityEmitter, private readonly baseUrl = '') {}

  public created(container: string, iri: string): void {
    this.emit(iri, AS.terms.Create);
    this.emit(container, AS.terms.Add, iri);
  }

  public updated(iri: string): void {
    this.emit(iri, AS.terms.Update);
  }

  public deleted(container: string | undefined, iri: string): void {
    this.emit(iri, AS.terms.Delete);
    if (container) {
      this.emit(container, AS.terms.Remove, iri);
    }
  }

  private emit(target: string, activity: Activity, object?: string): void {
    if (!target.startsWith(this.baseUrl)) {
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
