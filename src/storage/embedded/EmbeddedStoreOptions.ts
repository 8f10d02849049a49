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
  anonymousAccess: 'none',
  maxBodyBytes: 64 * 1024 * 1024,
} as const;
