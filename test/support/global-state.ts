/**
 * Hands the shared servers from globalSetup to globalTeardown. Both run in
 * jest's main process but are loaded as separate modules, so the state lives
 * on globalThis (as jest's documentation suggests).
 */
import type { FusekiServer } from './fuseki';
import type { RedisServer } from './redis';
import type { VirtuosoServer } from './virtuoso';

export interface GlobalServers {
  virtuoso?: VirtuosoServer;
  fuseki?: FusekiServer;
  redis?: RedisServer;
  runDir: string;
}

const KEY = '__fedpodTestServers';
type Holder = { [KEY]?: GlobalServers };

export function setGlobalServers(servers: GlobalServers | undefined): void {
  (globalThis as unknown as Holder)[KEY] = servers;
}

export function getGlobalServers(): GlobalServers | undefined {
  return (globalThis as unknown as Holder)[KEY];
}
