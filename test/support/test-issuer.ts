/**
 * A minimal Solid-OIDC issuer and WebID host on http://localhost:PORT (plain HTTP is allowed for
 * localhost): a WebID document, an OpenID configuration and a key set, so that tests can make
 * access tokens for WebIDs as a real identity provider would, and CSS's verifier checks them. It is
 * on loopback: a server reads its WebIDs and keys only when started with --allow-private-network.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type KeyLike } from 'jose';

export class TestIssuer {
  readonly server: Server;
  issuer = '';
  private privateKey!: KeyLike;
  private jwks = '';

  constructor() {
    this.server = createServer((request, response) => {
      const url = request.url ?? '/';
      if (url === '/.well-known/openid-configuration') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ issuer: this.issuer, jwks_uri: `${this.issuer}/jwks` }));
      } else if (url === '/jwks') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(this.jwks);
      } else if (url.startsWith('/people/')) {
        response.writeHead(200, { 'content-type': 'text/turtle' });
        response.end(`<#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <${this.issuer}> .`);
      } else {
        response.writeHead(404).end();
      }
    });
  }

  async start(): Promise<void> {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    this.privateKey = privateKey;
    this.jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'test', alg: 'ES256', use: 'sig' }] });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    // No trailing slash: the token's iss must equal the WebID's solid:oidcIssuer exactly.
    this.issuer = `http://localhost:${(this.server.address() as AddressInfo).port}`;
  }

  webId(name: string): string {
    return `${this.issuer}/people/${name}#me`;
  }

  /** A Bearer access token as a Solid-OIDC provider issues it. */
  async token(webid: string): Promise<string> {
    return new SignJWT({ webid, client_id: 'fedpod-test' })
      .setProtectedHeader({ alg: 'ES256', kid: 'test', typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience('solid')
      .setSubject(webid)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(this.privateKey);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
