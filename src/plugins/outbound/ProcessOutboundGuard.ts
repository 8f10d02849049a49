import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import { isBackendAgent } from '../../util/BackendAgents';
import { DEFAULT_OUTBOUND_BOUNDS, GuardedHttpAgent, GuardedHttpsAgent, openGuarded, SELF_GUARDED_AGENT, type OutboundBounds } from './GuardedAgents';
import { guardedDispatcher } from './GuardedDispatcher';
import type { SsrfGuard } from './SsrfGuard';

type CreateConnection = (this: http.Agent, options: http.ClientRequestArgs, callback?: (error: Error | null, stream: Duplex) => void) =>
Duplex | null | undefined;

interface Installed {
  guard: SsrfGuard;
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
  dispatcher: Dispatcher;
  patchedHttp: CreateConnection;
  patchedHttps: CreateConnection;
  previous: {
    httpAgent: http.Agent;
    httpsAgent: https.Agent;
    dispatcher: Dispatcher;
    httpCreateConnection: CreateConnection;
    httpsCreateConnection: CreateConnection;
  };
}

let installed: Installed | undefined;

function exempt(agent: http.Agent): boolean {
  return (agent as unknown as Record<symbol, unknown>)[SELF_GUARDED_AGENT] === true || isBackendAgent(agent);
}

function patch(original: CreateConnection, protocol: string): CreateConnection {
  return function guardedCreateConnection(this: http.Agent, options, callback): Duplex | null | undefined {
    if (!installed || exempt(this)) {
      return original.call(this, options, callback);
    }
    return openGuarded(installed.guard, protocol, options, callback, (checked): Duplex | null | undefined =>
      original.call(this, checked, callback));
  };
}

/**
 * The process-wide backstop of the outbound guard, so that a library's request nobody knew of is
 * still checked:
 * - `http.globalAgent` and `https.globalAgent` (what `http.request`, node-fetch, cross-fetch, got and
 *   jose use when given no agent) become guarded agents, bounded in time and size;
 * - undici's global dispatcher (what the global `fetch` uses) becomes a guarded one;
 * - every other http(s) agent (`agent: false`, an agent a library made itself) has its connections
 *   checked too, except agents that check their own (SELF_GUARDED_AGENT) and the configured backends'
 *   (BackendAgents: the SPARQL store).
 * IP-literal hosts are checked before connecting and host names by the guard's DNS lookup; the
 * server's own origin is always reached. Connections made without an agent (`net.connect`: Redis,
 * the start-up checks) are not HTTP requests of libraries and are left alone.
 */
export function installProcessOutboundGuard(guard: SsrfGuard, bounds: OutboundBounds = DEFAULT_OUTBOUND_BOUNDS): void {
  if (installed) {
    throw new Error('The process-wide outbound guard is already installed');
  }
  const agentBounds = { timeoutMs: bounds.timeoutMs, maxResponseBytes: bounds.maxResponseBytes + 65_536 };
  const httpCreateConnection = http.Agent.prototype.createConnection as CreateConnection;
  const httpsCreateConnection = https.Agent.prototype.createConnection as CreateConnection;
  const next: Installed = {
    guard,
    httpAgent: new GuardedHttpAgent(guard, agentBounds),
    httpsAgent: new GuardedHttpsAgent(guard, agentBounds),
    dispatcher: guardedDispatcher(guard, bounds),
    patchedHttp: patch(httpCreateConnection, 'http:'),
    patchedHttps: patch(httpsCreateConnection, 'https:'),
    previous: { httpAgent: http.globalAgent, httpsAgent: https.globalAgent, dispatcher: getGlobalDispatcher(), httpCreateConnection, httpsCreateConnection },
  };
  installed = next;
  http.globalAgent = next.httpAgent;
  https.globalAgent = next.httpsAgent;
  http.Agent.prototype.createConnection = next.patchedHttp;
  https.Agent.prototype.createConnection = next.patchedHttps;
  setGlobalDispatcher(next.dispatcher);
}

/** Puts back what `installProcessOutboundGuard` replaced (for tests). */
export async function uninstallProcessOutboundGuard(): Promise<void> {
  const current = installed;
  if (!current) {
    return;
  }
  installed = undefined;
  http.globalAgent = current.previous.httpAgent;
  https.globalAgent = current.previous.httpsAgent;
  http.Agent.prototype.createConnection = current.previous.httpCreateConnection;
  https.Agent.prototype.createConnection = current.previous.httpsCreateConnection;
  setGlobalDispatcher(current.previous.dispatcher);
  current.httpAgent.destroy();
  current.httpsAgent.destroy();
  await current.dispatcher.close();
}

/**
 * The run-time check after start-up: what of the backstop is no longer in place (a library that
 * replaced a global agent or the dispatcher while it loaded, say). Empty when all is guarded.
 */
export function processOutboundGuardProblems(): string[] {
  if (!installed) {
    return [ 'the process-wide outbound guard is not installed' ];
  }
  const problems: string[] = [];
  if (http.globalAgent !== installed.httpAgent) {
    problems.push('http.globalAgent was replaced');
  }
  if (https.globalAgent !== installed.httpsAgent) {
    problems.push('https.globalAgent was replaced');
  }
  if (http.Agent.prototype.createConnection !== installed.patchedHttp) {
    problems.push('http.Agent.prototype.createConnection was replaced');
  }
  if (https.Agent.prototype.createConnection !== installed.patchedHttps) {
    problems.push('https.Agent.prototype.createConnection was replaced');
  }
  if (getGlobalDispatcher() !== installed.dispatcher) {
    problems.push('the global fetch dispatcher (undici) was replaced');
  }
  return problems;
}
