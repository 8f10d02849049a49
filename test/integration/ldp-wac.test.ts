/**
 * The LDP setup with WebACL (config/ldp-wac.json) end to end: the real server against Virtuoso,
 * with a minimal Solid-OIDC issuer (a WebID document, an OpenID configuration and a key set) so
 * tokens for the owner and for a stranger can be made.
 *
 * Default rules under test (src/plugins/ldp/RootAclInitializer.ts): everyone reads, the owner
 * WebID (--owner-webid, here FEDPOD_OWNER_WEBID) reads, writes and controls, nobody else writes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedServers } from '../support/env';
import { startFedpod, type FedpodServer } from '../support/fedpod';
import { checkPostPreconditions } from '../support/post-preconditions';
import { makeTempDir, REPO_ROOT } from '../support/processes';
import { httpRequest, type HttpResult } from '../support/sparql';
import { TestIssuer } from '../support/test-issuer';

const CONFIG = path.join(REPO_ROOT, 'config', 'ldp-wac.json');
const TEXT = 'http://schema.org/text';

const unique = (): string => `${Date.now()}-${Math.random().toString(36).slice(2)}`;

describe('LDP with WebACL (config/ldp-wac.json)', () => {
  const issuer = new TestIssuer();
  let server: FedpodServer;
  let owner: string;
  let stranger: string;

  const turtle = (text: string): string => `<http://example.org/wac-test/${unique()}> <${TEXT}> ${JSON.stringify(text)} .`;

  async function as(webid: string | undefined, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}):
  Promise<HttpResult> {
    const headers = { ...init.headers };
    if (webid) headers.authorization = `Bearer ${await issuer.token(webid)}`;
    return httpRequest(url, { ...init, headers });
  }

  beforeAll(async () => {
    await issuer.start();
    owner = issuer.webId('owner');
    stranger = issuer.webId('stranger');
    server = await startFedpod({
      config: CONFIG,
      sparqlEndpoint: sharedServers().sparqlEndpoint,
      // The test issuer is on loopback: the server reads its WebIDs and keys only with --allow-private-network.
      allowPrivateNetwork: true,
      env: { FEDPOD_OWNER_WEBID: owner },
    });
  });

  afterAll(async () => {
    await server?.stop();
    await issuer.stop();
  });

  it('lets anyone read: the root and /notes/ answer anonymous GETs, with WAC-Allow public="read"', async () => {
    for (const url of [server.baseUrl, `${server.baseUrl}notes/`]) {
      const reply = await httpRequest(url, { headers: { accept: 'text/turtle' } });
      expect(reply.status).toBe(200);
    }
    const head = await fetch(`${server.baseUrl}notes/`, { method: 'HEAD' });
    expect(head.headers.get('wac-allow')).toMatch(/public="read"/);
  });

  it('refuses anonymous writes with 401, also for JSON-LD (no fast path around authorization)', async () => {
    const notes = `${server.baseUrl}notes/`;
    const attempts = [
      await httpRequest(notes, { method: 'POST', headers: { 'content-type': 'text/turtle' }, body: turtle('anonymous') }),
      await httpRequest(notes, {
        method: 'POST',
        headers: { 'content-type': 'application/ld+json' },
        body: JSON.stringify({ '@id': 'http://example.org/x', [TEXT]: 'anonymous' }),
      }),
      await httpRequest(`${notes}anonymous`, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: turtle('x') }),
      await httpRequest(notes, { method: 'DELETE' }),
    ];
    expect(attempts.map((reply) => reply.status)).toEqual([401, 401, 401, 401]);
    expect((await httpRequest(`${server.baseUrl}.acl`)).status).toBe(401);
  });

  it('lets the owner write and control, and the public read what the owner wrote', async () => {
    const marker = `owner note ${unique()}`;
    const created = await as(owner, `${server.baseUrl}notes/`, {
      method: 'POST',
      headers: { 'content-type': 'text/turtle', slug: `owned-${unique()}` },
      body: turtle(marker),
    });
    expect(created.status).toBe(201);
    const listing = await httpRequest(`${server.baseUrl}notes/`, { headers: { accept: 'text/turtle' } });
    const name = /<([^>]*owned-[^>]*)>/.exec(listing.body)?.[1];
    expect(name).toBeDefined();
    const read = await httpRequest(new URL(name!, `${server.baseUrl}notes/`).href, { headers: { accept: 'text/turtle' } });
    expect(read.status).toBe(200);
    expect(read.body).toContain(marker);
    const acl = await as(owner, `${server.baseUrl}.acl`, { headers: { accept: 'text/turtle' } });
    expect(acl.status).toBe(200);
    expect(acl.body).toContain(owner);
  });

  it('honours preconditions on POST as CSS does, on every body, writing nothing on 412', async () => {
    await checkPostPreconditions(`${server.baseUrl}notes/`, { authorization: `Bearer ${await issuer.token(owner)}` });
  });

  it('refuses writes by another authenticated agent with 403', async () => {
    const reply = await as(stranger, `${server.baseUrl}notes/`, {
      method: 'POST',
      headers: { 'content-type': 'text/turtle' },
      body: turtle('stranger'),
    });
    expect(reply.status).toBe(403);
    expect((await as(stranger, `${server.baseUrl}.acl`)).status).toBe(403);
  });

  it('keeps /.internal/ closed to everyone, the owner too, whatever the ACLs say (as CSS)', async () => {
    const internal = `${server.baseUrl}.internal/setup/`;
    expect((await httpRequest(internal)).status).toBe(401);
    expect((await httpRequest(`${server.baseUrl}/.internal/setup/`)).status).toBe(401);
    // The root ACL gives the owner write and control of everything below it.
    expect((await as(owner, internal)).status).toBe(403);
    const put = await as(owner, `${internal}note`, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: turtle('internal') });
    expect(put.status).toBe(403);
    expect((await as(owner, `${server.baseUrl}.internal/`)).status).toBe(403);
    expect((await as(owner, server.baseUrl, { headers: { accept: 'text/turtle' } })).body).not.toContain('.internal');
  });

  it('keeps an edited root ACL across restarts (created only when missing)', async () => {
    // The owner makes the whole server private; a restart must not bring the public rule back.
    const privateAcl = [
      '@prefix acl: <http://www.w3.org/ns/auth/acl#>.',
      `<#owner> a acl:Authorization; acl:agent <${owner}>; acl:mode acl:Read, acl:Write, acl:Control;`,
      '  acl:accessTo <./>; acl:default <./>.',
    ].join('\n');
    const put = await as(owner, `${server.baseUrl}.acl`, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: privateAcl });
    expect(put.status).toBeLessThan(300);
    expect((await httpRequest(`${server.baseUrl}notes/`)).status).toBe(401);
    await server.restart();
    expect((await httpRequest(`${server.baseUrl}notes/`)).status).toBe(401);
    expect((await as(owner, `${server.baseUrl}notes/`)).status).toBe(200);
  });
});

describe('the sparql-endpoint part with WebACL', () => {
  let server: FedpodServer;

  beforeAll(async () => {
    // An operator's config that (wrongly) adds /sparql to the WebACL setup.
    const dir = makeTempDir('fedpod-wac-sparql-config');
    const config = path.join(dir, 'ldp-wac-sparql.json');
    const ldpWac = JSON.parse(fs.readFileSync(CONFIG, 'utf8')) as { '@context': unknown; import: string[] };
    // The setup's parts with the other file of the sparql-endpoint folder.
    const parts = ldpWac.import.map((part) => part.replace('/sparql-endpoint/none.json', '/sparql-endpoint/public.json'));
    expect(parts).toContain('fedpod:config/parts/sparql-endpoint/public.json');
    fs.writeFileSync(config, JSON.stringify({ '@context': ldpWac['@context'], import: parts }));
    server = await startFedpod({ config, sparqlEndpoint: sharedServers().sparqlEndpoint });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('refuses to serve /sparql (403 sparql_disabled) rather than expose every resource', async () => {
    const reply = await httpRequest(`${server.baseUrl}sparql?query=${encodeURIComponent('SELECT * WHERE { ?s ?p ?o } LIMIT 1')}`);
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body)).toMatchObject({ error: 'sparql_disabled' });
  });
});
