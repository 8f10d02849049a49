/**
 * Told of every change a store makes, after the change is stored: what Solid notification
 * subscribers hear of (Create/Update/Delete of a resource, Add/Remove on its container).
 */
export interface ResourceChangeListener {
  /** A new resource, a member of `container`. */
  created: (container: string, iri: string) => void;
  /** A resource (or collection) whose content changed; also a write that may have created it. */
  updated: (iri: string) => void;
  /** A removed resource, no longer a member of `container` (none: it had no container). */
  deleted: (container: string | undefined, iri: string) => void;
}
