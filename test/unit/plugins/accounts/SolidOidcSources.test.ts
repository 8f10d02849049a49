import { exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { SsrfBlockedError } from '../../../../src/plugins/outbound/OutboundErrors';
import { OutboundGuard } from '../../../../src/plugins/outbound/OutboundGuard';
import { SolidOidcSources } from '../../../../src/plugins/accounts/SolidOidcSources';
import { startCanary, type Canary } from '../../../support/canary';

describe('SolidOidcSources', () => {
  let idp: Canary;
  let issuer: string;
  let keys: string;
  let sign: (kid: string) => Promise<string>;

  beforeAll(async () => {
    idp = await startCanary();
    issuer = `${idp.origin}/idp`;
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    keys = JSON.stringify({ keys: [ { ...await exportJWK(publicKey), kid: 'one', alg: 'ES256' } ] });
    sign = async (kid) => new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid }).setIssuer(issuer).setAudience('solid').sign(privateKey);
    idp.routes.set('/people/alice', (request, response) => {
      response.writeHead(200, { 'content-type': 'text/turtle' });
      response.end([
        `<#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <${issuer}>, <https://other.example/> .`,
        `<#someone-else> <http://www.w3.org/ns/solid/terms#oidcIssuer> <https://evil.example/> .`,
      ].join('\n'));
    });
    idp.routes.set('/people/nobody', (request, response) => {
      response.writeHead(404).end();
    });
    idp.routes.set('/people/broken', (request, response) => {
      response.writeHead(200, { 'content-type': 'text/turtle' }).end('<#me> <a> "unterminated');
    });
    idp.routes.set('/idp/.well-known/openid-configuration', (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    });
    idp.routes.set('/idp/jwks', (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(keys);
    });
    idp.routes.set('/no-jwks/.well-known/openid-configuration', (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  afterAll(async () => {
    await idp.close();
  });

  const open = (): SolidOidcSources => new SolidOidcSources(new OutboundGuard('http://localhost:1/', true));

  it('reads the issuers a WebID names for itself, once for a while', async () => {
    const sources = open();
    const before = idp.hits.filter((hit) => hit === 'GET /people/alice').length;
    await expect(sources.getIssuers(`${idp.origin}/people/alice#me`)).resolves.toEqual([ issuer, 'https://other.example/' ]);
    await expect(sources.getIssuers(`${idp.origin}/people/alice#me`)).resolves.toHaveLength(2);
    expect(idp.hits.filter((hit) => hit === 'GET /people/alice').length - before).toBe(1);
  });

  it('refuses a WebID document that is missing or not Turtle', async () => {
    await expect(open().getIssuers(`${idp.origin}/people/nobody#me`)).rejects.toThrow(/answered 404/u);
    await expect(open().getIssuers(`${idp.origin}/people/broken#me`)).rejects.toThrow(/not Turtle/u);
  });

  it('verifies with the keys the issuer\'s configuration names', async () => {
    const keySet = await open().getKeySet(issuer);
    await expect(jwtVerify(await sign('one'), keySet)).resolves.toMatchObject({ payload: { iss: issuer } });
    await expect(jwtVerify(await sign('two'), keySet)).rejects.toThrow();
    await expect(open().getKeySet(`${idp.origin}/no-jwks`)).rejects.toThrow(/names no jwks_uri/u);
  });

  it('fetches nothing on loopback without --allow-private-network', async () => {
    const closed = new SolidOidcSources(new OutboundGuard('http://localhost:1/', false));
    const before = idp.hits.length;
    await expect(closed.getIssuers(`${idp.origin}/people/alice#me`)).rejects.toThrow(SsrfBlockedError);
    await expect(closed.getKeySet(issuer)).rejects.toThrow(SsrfBlockedError);
    expect(idp.since(before)).toEqual([]);
  });

  it('reaches this server\'s own issuer and WebIDs without the flag', async () => {
    const own = new SolidOidcSources(new OutboundGuard(`${idp.origin}/`, false));
    await expect(own.getIssuers(`${idp.origin}/people/alice#me`)).resolves.toContain(issuer);
    await expect(own.getKeySet(issuer)).resolves.toBeInstanceOf(Function);
  });
});
