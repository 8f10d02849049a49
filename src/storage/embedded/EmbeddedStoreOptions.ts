import type { AnonymousAccess } from './BasicAuthGuard';

/**
 * Options of the embedded store. Plain data (no functions) so they can be
 * handed to a worker thread as they are.
 */
export interface EmbeddedStoreOptions {
  /** Interface to bind; default 127.0.0.1 (the store is meant for local clients only). */
  readonly host?: string;
  /** Port to bind; 0 picks a free one (the chosen one is in the returned URL). Default 3030. */
  readonly port: number;
  /** Directory holding datasets.json and one subdirectory per dataset; created if missing. */
  readonly dataDir: string;
  /** Basic-auth user; default "admin". */
  readonly user?: string;
  /** Basic-auth password; default "admin". */
  readonly password?: string;
  /** Compact a dataset once its current update log exceeds this; default 64 MiB. */
  readonly compactThresholdBytes?: number;
  /**
   * Compact a dataset once its current update log holds this many records; default 10,000.
   * Bounds the replay after a crash (a record costs about a millisecond to replay with
   * 100,000 notes stored, far more than loading its quads from a snapshot).
   */
  readonly compactThresholdRecords?: number;
  /**
   * At a clean stop, compact every dataset whose current log holds at least this many
   * bytes, so the next start loads only snapshots; default 64 KiB. 0 compacts any non-empty log.
   */
  readonly compactAtCloseBytes?: number;
  /**
   * Rebuild a durable dataset's in-memory store once this many writes that may remove quads
   * (overwrites, deletes) were applied since it was built, and at least one for every 50 quads
   * it holds: Oxigraph keeps what they removed until then. 0: never. Default 1,000.
   */
  readonly rebuildAfterRemovals?: number;
  /** What requests without credentials may do; default 'none'. See AnonymousAccess. */
  readonly anonymousAccess?: AnonymousAccess;
  /** Largest accepted request body (413 beyond); default 64 MiB. */
  readonly maxBodyBytes?: number;
}

export const EMBEDDED_STORE_DEFAULTS = {
  host: '127.0.0.1',
  port: 3030,
  user: 'admin',
  password: 'admin',
  compactThresholdBytes: 64 * 1024 * 1024,
  compactThresholdRecords: 10_000,
  compactAtCloseBytes: 64 * 1024,
  rebuildAfterRemovals: 1000,
  anonymousAccess: 'none',
  maxBodyBytes: 64 * 1024 * 1024,
} as const;
