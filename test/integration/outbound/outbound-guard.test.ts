/**
 * Every place a request can make the server fetch something, against canaries: HTTP servers on
 * loopback (real sockets), one per server under test, that record every connection and request. Each
 * case runs on a server without --allow-private-network (its canary is never asked, and the request is
 * answered with a clear 4xx) and on one with the flag (the canary is asked: the case would see a fetch that bypassed the
 * guard). The places CSS fetched from (the findings of "Privacy on a server with many users"):
 * Solid-OIDC client IDs at /.oidc/auth, /.oidc/token, introspection and session end; a registered
 * client's jwks_uri; a sector_identifier_uri at registration; the WebID and issuer of a Solid token (Bearer and DPoP); acl:agentGroup
 * documents; remote JSON-LD contexts of bodies CSS reads; webhook notifications. Fedpod's setups
 * refuse the last-but-one two by design, whatever the flag: for those the control is
 * test/fixtures/config/ldp-wac-css-fetchers.json, with CSS's own components put back, where only the
 * process-wide backstop guards them. And Solid login keeps working with the flag off, on the default
 * setup too: tokens this server issues name it as issuer, and their WebIDs are here.
 */
import path from 'node:path';
import { Session } from '@inrupt/solid-client-authn-node';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { startCanary, type Canary } from '../../support/canary';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { postToOutbox, signup, type Session as Account } from '../../support/local-actors';
import { appToken } from '../../support/mastodon-oauth';
import { tailFile } from '../../support/processes';
import { PushService } from '../../support/push-service';
import { NOTIFY, requestSubscription } from '../../support/notifications';

const CSS_FETCHERS = path.join(__dirname, '..', '..', 'fixtures', 'config', 'ldp-wac-css-fetchers.json');
const JSON_ACCEPT = { accept: 'application/json' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded', ...JSON_ACCEPT };

interface Target {
  label: string;
  server: FedpodServer;
  open: boolean;
  alice: Account;
  /** This server's own canary: one without the flag must never reach it, at any time in the file. */
  canary: Canary;
}

describe('outbound requests a request can cause', () => {
  const targets: Record<'closed' | 'open' | 'cssClosed' | 'cssOpen' | 'activitypub', Target> = {} as never;
  let serial = 0;

  beforeAll(async () => {
    const setups: [keyof typeof targets, string, boolean][] = [
      [ 'closed', 'ldp-wac', false ],
      [ 'open', 'ldp-wac', true ],
      [ 'cssClosed', CSS_FETCHERS, false ],
      [ 'cssOpen', CSS_FETCHERS, true ],
      [ 'activitypub', 'activitypub', false ],
    ];
    const started = await Promise.allSettled(setups.map(async ([ key, config, open ]) => {
      const canary = await startCanary();
      let server: FedpodServer | undefined;
      try {
        server = await startFedpod({ config, allowPrivateNetwork: open });
        targets[key] = { label: `${path.basename(config, '.json')}${open ? ' --allow-private-network' : ''}`, server, open, canary,
          alice: await signup(server.baseUrl, 'alice') };
      } catch (error: unknown) {
        // Not a target yet: afterAll would not stop them.
        await server?.stop();
        await canary.close();
        throw error;
      }
    }));
    const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) {
      throw failed.reason;
    }
  });

  afterAll(async () => {
    await Promise.allSettled(Object.values(targets).map(async (target) => target.server.stop()));
    await Promise.allSettled(Object.values(targets).map(async (target) => target.canary.close()));
  });

  // A server without the flag has a canary of its own that must never be asked: each case checks it
  // as soon as the answer is in, and once more here, a second after the test's last request (one wait
  // per test, not per request; a late fetch from any earlier request of the file fails it too).
  let closedChecked = new Set<Target>();
  afterEach(async () => {
    const checked = [ ...closedChecked ];
    closedChecked = new Set();
    if (checked.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      for (const target of checked) {
        expect([ target.label, target.canary.hits ]).toEqual([ target.label, [] ]);
      }
    }
  });

  /** A path on the canary no other case uses. */
  function trap(name: string): string {
    serial += 1;
    return `/${name}-${serial}`;
  }

  /**
   * A WebID document and an OpenID issuer on the canary, new for each token (the server keeps what it
   * read for two minutes): the WebID names the issuer, whose configuration names its key set.
   */
  function identityOnCanary(canary: Canary): { webId: string; issuer: string; profile: string } {
    const profile = trap('profile');
    const issuer = `${canary.origin}${trap('idp')}`;
    const idp = new URL(issuer).pathname;
    canary.routes.set(profile, (request, response) => {
      response.writeHead(200, { 'content-type': 'text/turtle' });
      response.end(`<#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <${issuer}> .`);
    });
    canary.routes.set(`${idp}/.well-known/openid-configuration`, (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    });
    canary.routes.set(`${idp}/jwks`, (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
    });
    return { webId: `${canary.origin}${profile}#me`, issuer, profile };
  }

  /**
   * Runs `request` and checks the target's canary: never asked on a server without the flag (nor a
   * second after the test, see afterEach), asked for `path` (or at least connected to) on one with it.
   * Resolves with the answer.
   */
  async function expectGuarded(target: Target, path: string | 'connection', request: () => Promise<Response>): Promise<Response> {
    const { canary } = target;
    const before = canary.hits.length;
    const answer = await request();
    if (target.open) {
      await eventually(async () => canary.since(before).some((hit) => path === 'connection' ? hit === 'connection' : hit.endsWith(` ${path}`)),
        10_000, 50);
    } else {
      expect([ target.label, canary.hits ]).toEqual([ target.label, [] ]);
      closedChecked.add(target);
    }
    return answer;
  }

  /** A client error in Fedpod's JSON shape. */
  async function expectJsonError(answer: Response, statuses: number[]): Promise<void> {
    expect(statuses).toContain(answer.status);
    expect(await answer.json()).toEqual({ error: expect.any(String), message: expect.any(String) });
  }

  const oidcServers = (): Target[] => [ targets.closed, targets.activitypub, targets.open ];

  describe('Solid-OIDC client IDs (ClientIdAdapterFactory)', () => {
    it('at the authorization endpoint: a client ID on loopback by name is never fetched; the answer is 400', async () => {
      for (const target of oidcServers()) {
        const path = trap('client-auth');
        const query = new URLSearchParams({ client_id: `${target.canary.origin}${path}`, redirect_uri: 'https://app.example/cb', response_type: 'code',
          scope: 'openid webid', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
        const answer = await expectGuarded(target, path, async () => fetch(`${target.server.baseUrl}.oidc/auth?${query}`, { headers: JSON_ACCEPT }));
        if (!target.open) {
          await expectJsonError(answer, [ 400 ]);
        }
      }
    });

    it('at the authorization endpoint: https on a loopback address opens no connection', async () => {
      for (const target of oidcServers()) {
        const query = new URLSearchParams({ client_id: `https://127.0.0.1:${target.canary.port}/client-tls`, redirect_uri: 'https://app.example/cb',
          response_type: 'code', scope: 'openid webid' });
        const answer = await expectGuarded(target, 'connection', async () =>
          fetch(`${target.server.baseUrl}.oidc/auth?${query}`, { headers: JSON_ACCEPT }));
        if (!target.open) {
          await expectJsonError(answer, [ 400 ]);
        }
      }
    });

    it('at the token, introspection and session end endpoints: 401 or 400, nothing fetched', async () => {
      for (const target of oidcServers()) {
        const base = target.server.baseUrl;
        const token = trap('client-token');
        const tokenAnswer = await expectGuarded(target, token, async () => fetch(`${base}.oidc/token`, { method: 'POST', headers: FORM,
          body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', client_id: `${target.canary.origin}${token}`,
            redirect_uri: 'https://app.example/cb' }) }));
        const introspection = trap('client-introspection');
        const introspectionAnswer = await expectGuarded(target, introspection, async () => fetch(`${base}.oidc/token/introspection`,
          { method: 'POST', headers: FORM, body: new URLSearchParams({ token: 'x', client_id: `${target.canary.origin}${introspection}` }) }));
        const end = trap('client-end');
        const endAnswer = await expectGuarded(target, end, async () =>
          fetch(`${base}.oidc/session/end?${new URLSearchParams({ client_id: `${target.canary.origin}${end}` })}`, { headers: JSON_ACCEPT }));
        if (!target.open) {
          await expectJsonError(tokenAnswer, [ 401 ]);
          await expectJsonError(introspectionAnswer, [ 401 ]);
          await expectJsonError(endAnswer, [ 400 ]);
        }
      }
    });
  });

  describe('the OpenID provider\'s own fetches (httpOptions)', () => {
    it('a sector_identifier_uri at registration (https on loopback): 400, no connection', async () => {
      for (const target of oidcServers()) {
        for (const host of [ 'localhost', '127.0.0.1' ]) {
          const answer = await expectGuarded(target, 'connection', async () => fetch(`${target.server.baseUrl}.oidc/reg`, { method: 'POST',
            headers: { 'content-type': 'application/json', ...JSON_ACCEPT },
            body: JSON.stringify({ redirect_uris: [ 'https://app.example/cb' ], sector_identifier_uri: `https://${host}:${target.canary.port}${trap('sector')}` }) }));
          await expectJsonError(answer, [ 400 ]);
        }
      }
    });

    it('a registered client\'s jwks_uri, read for its client assertion: 401, nothing fetched', async () => {
      for (const target of oidcServers()) {
        const base = target.server.baseUrl;
        const path = trap('jwks');
        const registered = await fetch(`${base}.oidc/reg`, { method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: [ 'https://app.example/cb' ], jwks_uri: `${target.canary.origin}${path}`,
            token_endpoint_auth_method: 'private_key_jwt', grant_types: [ 'client_credentials' ], response_types: [] }) });
        expect(registered.status).toBe(201);
        const clientId = (await registered.json() as { client_id: string }).client_id;
        const { privateKey } = await generateKeyPair('ES256');
        const assertion = await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setIssuer(clientId).setSubject(clientId)
          .setAudience(`${base}.oidc/token`).setJti(`jti-${serial}`).setIssuedAt().setExpirationTime('1m').sign(privateKey);
        const answer = await expectGuarded(target, path, async () => fetch(`${base}.oidc/token`, { method: 'POST', headers: FORM,
          body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId,
            client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion }) }));
        if (!target.open) {
          await expectJsonError(answer, [ 401 ]);
        }
      }
    });
  });

  describe('Solid tokens: the WebID and the issuer\'s keys, before any credential is checked', () => {
    const tokenServers = (): Target[] => [ targets.closed, targets.activitypub, targets.cssClosed, targets.open, targets.cssOpen ];

    async function selfSigned(webid: string, issuer: string, dpopFor?: { method: string; url: string }): Promise<Record<string, string>> {
      const { privateKey } = await generateKeyPair('ES256');
      const proofKeys = await generateKeyPair('ES256');
      const jwk = await exportJWK(proofKeys.publicKey);
      const token = await new SignJWT({ webid, client_id: 'https://app.example/id', ...dpopFor ? { cnf: { jkt: await calculateJwkThumbprint(jwk) } } : {} })
        .setProtectedHeader({ alg: 'ES256', kid: 'k' }).setIssuer(issuer).setSubject(webid).setAudience('solid').setIssuedAt()
        .setExpirationTime('5m').sign(privateKey);
      if (!dpopFor) {
        return { authorization: `Bearer ${token}` };
      }
      const proof = await new SignJWT({ htm: dpopFor.method, htu: dpopFor.url }).setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
        .setIssuedAt().setJti(`proof-${serial}`).sign(proofKeys.privateKey);
      return { authorization: `DPoP ${token}`, dpop: proof };
    }

    it('a Bearer token naming a WebID and issuer on loopback: 401, nothing fetched', async () => {
      for (const target of tokenServers()) {
        const { webId, issuer, profile } = identityOnCanary(target.canary);
        const headers = await selfSigned(webId, issuer);
        const answer = await expectGuarded(target, profile, async () => fetch(target.server.baseUrl, { headers: { ...headers, ...JSON_ACCEPT } }));
        await expectJsonError(answer, [ 401 ]);
      }
    });

    it('a DPoP token naming a WebID and issuer on loopback: 401, nothing fetched', async () => {
      for (const target of tokenServers()) {
        const url = target.server.baseUrl;
        const { webId, issuer, profile } = identityOnCanary(target.canary);
        const headers = await selfSigned(webId, issuer, { method: 'GET', url });
        const answer = await expectGuarded(target, profile, async () => fetch(url, { headers: { ...headers, ...JSON_ACCEPT } }));
        await expectJsonError(answer, [ 401 ]);
      }
    });

    it('a WebID over https on a loopback address: no connection', async () => {
      for (const target of tokenServers()) {
        const headers = await selfSigned(`https://127.0.0.1:${target.canary.port}${trap('tls-profile')}#me`, `https://127.0.0.1:${target.canary.port}`);
        const answer = await expectGuarded(target, 'connection', async () => fetch(target.server.baseUrl, { headers: { ...headers, ...JSON_ACCEPT } }));
        await expectJsonError(answer, [ 401 ]);
      }
    });

    it('with the flag, the issuer\'s configuration and keys are read through the guard too', async () => {
      const { canary } = targets.open;
      const before = canary.hits.length;
      const { webId, issuer, profile } = identityOnCanary(canary);
      const headers = await selfSigned(webId, issuer);
      expect((await fetch(targets.open.server.baseUrl, { headers })).status).toBe(401);
      const idp = new URL(issuer).pathname;
      expect(canary.since(before)).toEqual(expect.arrayContaining([ `GET ${profile}`, `GET ${idp}/.well-known/openid-configuration`, `GET ${idp}/jwks` ]));
    });
  });

  describe('bodies and ACLs CSS\'s own pipeline reads (ldp-wac)', () => {
    const aclServers = (): Target[] => [ targets.closed, targets.open, targets.cssClosed, targets.cssOpen ];
    const storageOf = (target: Target): string => `${target.server.baseUrl}pods/alice/`;
    const as = (target: Target): Record<string, string> => ({ authorization: `Bearer ${target.alice.token}` });

    it('acl:agentGroup documents are not followed (CSS\'s own checker: only the backstop stops it)', async () => {
      for (const target of aclServers()) {
        const storage = storageOf(target);
        const folder = `${storage}group-${serial}/`;
        const path = trap('group');
        const put = await fetch(`${folder}note.ttl`, { method: 'PUT', headers: { 'content-type': 'text/turtle', ...as(target) },
          body: '<#it> <http://schema.org/name> "one" .' });
        expect(put.status).toBe(201);
        const acl = [
          '@prefix acl: <http://www.w3.org/ns/auth/acl#> .',
          `<#owner> a acl:Authorization; acl:agent <${target.alice.webId}>; acl:accessTo <./>; acl:default <./>;`,
          '  acl:mode acl:Read, acl:Write, acl:Control .',
          `<#group> a acl:Authorization; acl:agentGroup <${target.canary.origin}${path}#members>; acl:accessTo <./>; acl:default <./>;`,
          '  acl:mode acl:Read, acl:Write .',
        ].join('\n');
        expect((await fetch(`${folder}.acl`, { method: 'PUT', headers: { 'content-type': 'text/turtle', ...as(target) }, body: acl })).status)
          .toBeLessThan(300);
        const insert = '@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts { <#it> <http://schema.org/name> "two" }.';
        // A document's PATCH and DELETE: Fedpod's write handlers, whose authorizer never follows the group.
        const patched = await expectNothingFetched(target, path, async () => fetch(`${folder}note.ttl`, {
          method: 'PATCH', headers: { 'content-type': 'text/n3', ...as(target) }, body: insert }));
        expect(patched.status).toBeLessThan(300);
        const removed = await expectNothingFetched(target, path, async () => fetch(`${folder}note.ttl`, { method: 'DELETE', headers: as(target) }));
        expect(removed.status).toBeLessThan(300);
        // What still reaches CSS's chain, checked again by CSS's WebACL: a PATCH whose container is missing, a container's DELETE.
        const cssFetches = target === targets.cssOpen;
        const created = await (cssFetches ? expectGuarded : expectNothingFetched)(target, path, async () => fetch(`${folder}sub/note.ttl`, {
          method: 'PATCH', headers: { 'content-type': 'text/n3', ...as(target) }, body: insert }));
        expect(created.status).toBeLessThan(300);
        expect((await fetch(`${folder}sub/note.ttl`, { method: 'DELETE', headers: as(target) })).status).toBeLessThan(300);
        const container = await (cssFetches ? expectGuarded : expectNothingFetched)(target, path, async () =>
          fetch(`${folder}sub/`, { method: 'DELETE', headers: as(target) }));
        expect(container.status).toBeLessThan(300);
      }
    });

    it('remote JSON-LD contexts of a body CSS reads (a subscription): 4xx, nothing fetched (CSS\'s converter: only the backstop stops it)', async () => {
      for (const target of aclServers()) {
        const path = trap('context');
        const cssFetches = target === targets.cssOpen;
        const answer = await (cssFetches ? expectGuarded : expectNothingFetched)(target, path, async () =>
          fetch(`${target.server.baseUrl}.notifications/WebSocketChannel2023/`, { method: 'POST',
            headers: { 'content-type': 'application/ld+json', ...as(target) },
            body: JSON.stringify({ '@context': [ 'https://www.w3.org/ns/solid/notification/v1', `${target.canary.origin}${path}` ],
              type: `${NOTIFY}WebSocketChannel2023`, topic: storageOf(target) }) }));
        if (!cssFetches) {
          await expectJsonError(answer, [ 400, 422 ]);
        }
      }
    });

    it('webhook notifications go to public addresses only; the subscription itself (CSS\'s notification context) works', async () => {
      for (const target of [ targets.closed, targets.open ]) {
        const path = trap('hook');
        const topic = `${storageOf(target)}watched-${serial}.txt`;
        expect((await fetch(topic, { method: 'PUT', headers: { 'content-type': 'text/plain', ...as(target) }, body: 'one' })).status).toBe(201);
        const subscribed = await requestSubscription(target.server.baseUrl, topic, as(target), 'WebhookChannel2023', { sendTo: `${target.canary.origin}${path}` });
        expect(subscribed.status).toBe(200);
        expect(await subscribed.json()).toMatchObject({ type: `${NOTIFY}WebhookChannel2023`, topic });
        await expectGuarded(target, path, async () => fetch(topic, { method: 'PUT', headers: { 'content-type': 'text/plain', ...as(target) }, body: 'two' }));
      }
    });
  });

  /** As expectGuarded for a place that fetches nothing even with the flag. */
  async function expectNothingFetched(target: Target, path: string, request: () => Promise<Response>): Promise<Response> {
    if (!target.open) {
      return expectGuarded(target, path, request);
    }
    // The canary of a server with the flag is asked by other cases: only this request's second counts.
    const before = target.canary.hits.length;
    const answer = await request();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect([ target.label, target.canary.since(before) ]).toEqual([ target.label, [] ]);
    return answer;
  }

  describe('Web Push endpoints: a user\'s own subscription names the address', () => {
    it('a push to an endpoint on loopback is never sent: the job is dead with the guard\'s reason', async () => {
      const target = targets.activitypub;
      // Keys as a browser's push service would give them; the endpoint is the canary's.
      const keys = await PushService.start();
      try {
        const token = await appToken(target.server.baseUrl, 'alice', 'correct horse', 'read write follow push');
        const endpoint = `${target.canary.origin}${trap('push')}`;
        const subscribed = await fetch(`${target.server.baseUrl}api/v1/push/subscription`, { method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ subscription: { ...keys.subscriber('alice'), endpoint }, data: { alerts: { follow: true }}}) });
        expect(subscribed.status).toBe(200);
        const bob = await signup(target.server.baseUrl, 'pushbob');
        expect((await postToOutbox(bob, { type: 'Follow', object: target.alice.webId })).status).toBe(201);
        // The follow made alice a notification, its push was tried and refused by the outbound guard.
        await eventually(async () => /Queue web-push: job \S+ is dead/u.test(tailFile(target.server.logFile, 400)), 30_000);
        expect(tailFile(target.server.logFile, 400)).toMatch(/Queue web-push: job \S+ is dead[^\n]*(private|loopback|refus)/iu);
        expect([ target.label, target.canary.hits ]).toEqual([ target.label, [] ]);
        closedChecked.add(target);
        expect(keys.pushesTo('alice')).toEqual([]);
      } finally {
        await keys.close();
      }
    });
  });

  describe('Solid login with the flag off: this server\'s own issuer and WebIDs are reached', () => {
    it.each([ 'closed', 'activitypub' ] as const)('a script logged in with client credentials (%s)', async (key) => {
      const target = targets[key];
      const base = target.server.baseUrl;
      const made = await fetch(`${base}auth/clients`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${target.alice.token}` },
        body: '{"name":"outbound test"}' });
      expect(made.status).toBe(201);
      const client = await made.json() as { id: string; secret: string; issuer: string };
      const session = new Session();
      try {
        await session.login({ clientId: client.id, clientSecret: client.secret, oidcIssuer: client.issuer, tokenType: 'DPoP' });
        expect(session.info.webId).toBe(target.alice.webId);
        const before = target.canary.hits.length;
        const listed = await session.fetch(`${base}auth/clients`);
        expect(listed.status).toBe(200);
        expect(target.canary.since(before)).toEqual([]);
      } finally {
        await session.logout();
      }
    });
  });
});
