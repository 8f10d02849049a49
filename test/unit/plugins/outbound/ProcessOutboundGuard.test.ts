/**
 * The process-wide backstop of the outbound guard, as `fedpod start` installs it, against the ways a
 * library can make an HTTP request: Node's global agents, an agent of its own or none (`agent: false`),
 * the global fetch (undici), node-fetch and cross-fetch (CSS, @solid/access-token-verifier), jose's
 * remote key set. Each must refuse the canary on loopback, reach the server's own origin, and reach
 * the canary with --allow-private-network; the SPARQL store's agents are left alone.
 */
import http from 'node:http';
import https from 'node:https';
import { createRemoteJWKSet } from 'jose';
import crossFetch from 'cross-fetch';
import { Agent as UndiciAgent, fetch as undiciFetch, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { installProcessOutboundGuard, processOutboundGuardProblems, uninstallProcessOutboundGuard } from
  '../../../../src/plugins/outbound/ProcessOutboundGuard';
import { SsrfGuard } from '../../../../src/plugins/outbound/SsrfGuard';
import { HttpTransport } from '../../../../src/storage/HttpTransport';
import { startCanary, type Canary } from '../../../support/canary';

type Client = (url: string) => Promise<unknown>;

// node-fetch 2 (what CSS's cross-fetch and @solid/access-token-verifier use) has no types here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nodeFetch = require('node-fetch') as (url: string) => Promise<Response>;

function get(module: typeof http | typeof https, url: string, options: http.RequestOptions = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = module.get(url, options, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
}

const ownAgent = new http.Agent({ keepAlive: true });

/** A lookup that answers 127.0.0.1 for every name, as a library could pass. */
const ownLookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void): void => {
  if (options.all) {
    callback(null, [ { address: '127.0.0.1', family: 4 } ]);
  } else {
    callback(null, '127.0.0.1', 4);
  }
}) as unknown as http.RequestOptions['lookup'];

const CLIENTS: [string, Client][] = [
  [ 'http.get (global agent)', async (url) => get(http, url) ],
  [ 'http.get with agent: false', async (url) => get(http, url, { agent: false }) ],
  [ 'http.get with an agent of its own', async (url) => get(http, url, { agent: ownAgent }) ],
  [ 'http.get with a lookup of its own', async (url) => get(http, url, { lookup: ownLookup }) ],
  // undici's fetch, with the global dispatcher Node's own fetch uses too (in a jest test Node's fetch
  // reads the dispatcher of another realm: the integration tests check it in the server).
  [ 'fetch (undici, the global dispatcher)', async (url) => (await undiciFetch(url)).text() ],
  [ 'node-fetch', async (url) => (await nodeFetch(url)).text() ],
  [ 'cross-fetch', async (url) => (await crossFetch(url)).text() ],
  [ 'jose createRemoteJWKSet', async (url) => createRemoteJWKSet(new URL(url))({ alg: 'ES256', kid: 'x' }, { payload: '', signature: '' } as never) ],
];

describe('the process-wide outbound guard', () => {
  let canary: Canary;
  /** Stands for the server itself: the guard's own origin. */
  let self: Canary;

  beforeAll(async () => {
    canary = await startCanary();
    self = await startCanary();
    for (const server of [ canary, self ]) {
      server.routes.set('/jwks', (request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
      });
    }
  });

  afterAll(async () => {
    await uninstallProcessOutboundGuard();
    ownAgent.destroy();
    await canary.close();
    await self.close();
  });

  describe('without --allow-private-network', () => {
    beforeAll(() => {
      installProcessOutboundGuard(new SsrfGuard(false, [ `${self.origin}/` ]));
    });

    afterAll(async () => {
      await uninstallProcessOutboundGuard();
    });

    it('replaces the global agents and the fetch dispatcher, and says so', () => {
      expect(processOutboundGuardProblems()).toEqual([]);
      const original = http.globalAgent;
      http.globalAgent = new http.Agent();
      try {
        expect(processOutboundGuardProblems()).toEqual([ 'http.globalAgent was replaced' ]);
      } finally {
        http.globalAgent = original;
      }
      const dispatcher = getGlobalDispatcher();
      setGlobalDispatcher(new UndiciAgent());
      try {
        expect(processOutboundGuardProblems()).toEqual([ 'the global fetch dispatcher (undici) was replaced' ]);
      } finally {
        setGlobalDispatcher(dispatcher);
      }
      expect(() => installProcessOutboundGuard(new SsrfGuard(true))).toThrow(/already installed/u);
    });

    it.each(CLIENTS)('%s: refuses loopback by host name, never connecting', async (label, client) => {
      const before = canary.hits.length;
      await expect(client(`${canary.origin}/jwks`)).rejects.toThrow();
      expect(canary.since(before)).toEqual([]);
    });

    it.each(CLIENTS)('%s: refuses an IP literal, never connecting', async (label, client) => {
      const before = canary.hits.length;
      await expect(client(`http://127.0.0.1:${canary.port}/jwks`)).rejects.toThrow();
      await expect(client(`http://[::ffff:127.0.0.1]:${canary.port}/jwks`)).rejects.toThrow();
      expect(canary.since(before)).toEqual([]);
    });

    it('refuses https to loopback before any handshake', async () => {
      const before = canary.hits.length;
      await expect(get(https, `https://127.0.0.1:${canary.port}/`)).rejects.toThrow(/non-public/u);
      await expect(undiciFetch(`https://localhost:${canary.port}/`)).rejects.toThrow();
      expect(canary.since(before)).toEqual([]);
    });

    it.each(CLIENTS)('%s: reaches the server\'s own origin', async (label, client) => {
      const before = self.hits.length;
      await client(`${self.origin}/jwks`).catch((error: unknown) => {
        // jose finds no key "x" in the empty set: the fetch itself happened.
        expect(String(error)).toMatch(/no applicable key|JWKSNoMatchingKey/u);
      });
      expect(self.since(before)).toContain('GET /jwks');
    });

    it('leaves the SPARQL store\'s agents (configured backends) alone', async () => {
      const before = canary.hits.length;
      const answer = await new HttpTransport().send({ method: 'GET', url: `http://127.0.0.1:${canary.port}/sparql` });
      expect(answer.status).toBe(200);
      expect(canary.since(before)).toContain('GET /sparql');
    });
  });

  describe('with --allow-private-network', () => {
    beforeAll(() => {
      installProcessOutboundGuard(new SsrfGuard(true, [ `${self.origin}/` ]));
    });

    afterAll(async () => {
      await uninstallProcessOutboundGuard();
    });

    it.each(CLIENTS)('%s: reaches the canary (so the cases above would see a bypass)', async (label, client) => {
      const before = canary.hits.length;
      await client(`${canary.origin}/jwks`).catch((): void => undefined);
      expect(canary.since(before)).toContain('GET /jwks');
    });
  });

  it('puts everything back when uninstalled', async () => {
    const agent = http.globalAgent;
    installProcessOutboundGuard(new SsrfGuard(false));
    expect(http.globalAgent).not.toBe(agent);
    await uninstallProcessOutboundGuard();
    expect(http.globalAgent).toBe(agent);
    expect(processOutboundGuardProblems()).toEqual([ 'the process-wide outbound guard is not installed' ]);
    const before = canary.hits.length;
    await get(http, `${canary.origin}/after`);
    expect(canary.since(before)).toContain('GET /after');
  });
});
