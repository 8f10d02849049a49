/**
 * Agents of the configured backends (the SPARQL store's HttpTransport): the process-wide outbound
 * guard (src/plugins/outbound/ProcessOutboundGuard.ts) leaves their connections alone, since the
 * operator chose these addresses, loopback and private ones included.
 */
const BACKEND_AGENT = Symbol.for('fedpod.outbound.backendAgent');

/** Marks an agent as a configured backend's; returns it. */
export function markBackendAgent<T extends object>(agent: T): T {
  Object.defineProperty(agent, BACKEND_AGENT, { value: true });
  return agent;
}

/** Whether the agent was marked with `markBackendAgent`. */
export function isBackendAgent(agent: object): boolean {
  return (agent as Record<symbol, unknown>)[BACKEND_AGENT] === true;
}
