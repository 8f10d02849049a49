/**
 * A counter every node sharing a deployment sees: bumped after each change of some kind (e.g. a
 * webhook revoked), read to learn whether anything changed since a value was cached. A cache entry
 * kept with the value read *before* the entry was loaded is current while the counter still reads
 * the same, whichever node made the change.
 */
export interface ChangeCounter {
  /** The current value, opaque: compare for equality only. */
  read: () => Promise<string>;
  /** Moves the value on; resolves once every later read() anywhere sees the new value. */
  bump: () => Promise<void>;
}
