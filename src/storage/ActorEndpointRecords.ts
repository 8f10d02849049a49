/** Where a remote actor takes deliveries, as its document said when it was last fetched. */
export interface ActorEndpoints {
  inbox: string;
  sharedInbox?: string;
  /** Epoch ms of the fetch the endpoints come from. */
  checkedAt: number;
}

/**
 * What federation asks of the store about remote actors: their delivery endpoints, kept so that a
 * fan-out after a restart, or on another node, needs no actor fetches. `SparqlActorEndpointRecords`
 * is the SPARQL implementation.
 */
export interface ActorEndpointRecords {
  /** The stored endpoints of those of `actorIds` that are known, by actor id (the newest where stored twice). */
  lookup: (actorIds: readonly string[]) => Promise<Map<string, ActorEndpoints>>;
  /** Replaces the endpoints of each actor given, as one write. */
  replace: (entries: readonly (readonly [string, ActorEndpoints])[]) => Promise<void>;
}
