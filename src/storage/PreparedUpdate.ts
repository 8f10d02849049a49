/**
 * Update operations made ready by one storage class to be sent with those of another in one update
 * request, which the stores apply all or nothing (a received activity with its inbox entries).
 */
export interface PreparedUpdate {
  /** SPARQL update operations, in the order they apply. */
  operations: string[];
  /** To call once they are stored: the change notifications of what they wrote. */
  stored: () => void;
}
