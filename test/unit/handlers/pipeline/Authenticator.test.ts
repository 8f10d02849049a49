import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServerResponse } from 'node:http';
import type { CredentialsExtractor, HttpRequest } from '@solid/community-server';
import { SignJWT, generateKeyPair } from 'jose';
import { Authenticator } from '../../../../src/handlers/pipeline/Authenticator';
import { Operation } from '../../../../src/handlers/http/Operation';
import { TokenService } from '../../../../src/plugins/accounts/TokenService';
import { AccountModerations } from '../../../../src/plugins/moderation/AccountModerations';
import { MastodonOAuthService } from '../../../../src/plugins/mastodon/MastodonOAuthService';

const BASE = 'https://pod.example/';

/** The operation of a request of `/x` with these headers, as the pipeline hands it to the authenticator. */
function request(headers: Record<string, string>, method = 'GET'): Operation {
  return new Operation({ request: { method, url: '/x', headers } as unknown as HttpRequest, response: {} as ServerResponse,
    target: Operation.parseTarget('https://pod.example', '/x')! });
}

describe('Authenticator', () => {
  let dataDir: string;
  let tokens: TokenService;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fedpod-authenticator-'));
    tokens = new TokenService(BASE, dataDir, 3600);
  });

  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds nobody, at no cost, when no credentials are sent', async() => {
    const verify = jest.spyOn(tokens, 'verify');
    expect(await new Authenticator(BASE, tokens).authenticate(request({}))).toEqual({});
    expect(verify).not.toHaveBeenCalled();
    verify.mockRestore();
  });

  it('knows a local user by a Fedpod token, verified once while it is valid', async() => {
    const authenticator = new Authenticator(BASE, tokens);
    const token = await tokens.issue({ webId: `${BASE}actors/alice`, username: 'alice' });
    const verify = jest.spyOn(tokens, 'verify');
    for (let index = 0; index < 3; index++) {
      expect(await authenticator.authenticate(request({ authorization: `Bearer ${token}` })))
        .toEqual({ webId: `${BASE}actors/alice`, username: 'alice' });
    }
    expect(verify).toHaveBeenCalledTimes(1);
    verify.mockRestore();
  });

  it('knows a Mastodon app\'s OAuth token with its user and scopes, and refuses it once revoked, at once', async() => {
    const oauth = new MastodonOAuthService(dataDir);
    const { app, clientSecret } = await oauth.register({ client_name: 'app', redirect_uris: 'https://app.example/cb', scopes: 'read' });
    const code = await oauth.issueCode({ clientId: app.clientId, username: 'alice', webId: `${BASE}actors/alice`, scopes: [ 'read' ],
      redirectUri: 'https://app.example/cb' });
    const { access_token: accessToken } = await oauth.exchangeCode({ clientId: app.clientId, clientSecret }, code, undefined, undefined);
    const solid = { handleSafe: jest.fn() } as unknown as CredentialsExtractor;
    const authenticator = new Authenticator(BASE, tokens, solid, undefined, undefined, 100, oauth);
    expect(await authenticator.authenticate(request({ authorization: `Bearer ${accessToken}` })))
      .toEqual({ webId: `${BASE}actors/alice`, username: 'alice', scopes: [ 'read' ], app: app.clientId });
    const appToken = (await oauth.clientToken({ clientId: app.clientId, clientSecret }, 'read')).access_token;
    expect(await authenticator.authenticate(request({ authorization: `Bearer ${appToken}` }))).toEqual({ scopes: [ 'read' ], app: app.clientId });
    await oauth.revoke({ clientId: app.clientId, clientSecret }, accessToken);
    await expect(authenticator.authenticate(request({ authorization: `Bearer ${accessToken}` })))
      .rejects.toMatchObject({ statusCode: 401, errorCode: 'The access token is invalid' });
    // Opaque tokens are this server's OAuth tokens: never sent on to the Solid-OIDC check.
    expect(solid.handleSafe).not.toHaveBeenCalled();
  });

  it('refuses a forged or expired Fedpod token with 401, every time', async() => {
    const authenticator = new Authenticator(BASE, tokens);
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ webId: `${BASE}actors/alice`, preferred_username: 'alice' })
      .setProtectedHeader({ alg: 'ES256' }).setIssuer(BASE).setSubject(`${BASE}actors/alice`).setExpirationTime('1h').sign(privateKey);
    for (let index = 0; index < 2; index++) {
      await expect(authenticator.authenticate(request({ authorization: `Bearer ${forged}` }))).rejects.toMatchObject({ statusCode: 401 });
    }
    const expired = await new TokenService(BASE, dataDir, -10).issue({ webId: `${BASE}actors/alice`, username: 'alice' });
    await expect(authenticator.authenticate(request({ authorization: `Bearer ${expired}` })))
      .rejects.toMatchObject({ statusCode: 401, errorCode: 'token_expired' });
  });

  it('hands other tokens to the Solid-OIDC extractor, and refuses what it does not accept', async() => {
    // A stand-in for CSS's extractor: the real one, with a real issuer, runs in test/integration/ldp/ldp.test.ts.
    const extractor = { handleSafe: jest.fn(async(): Promise<object> => ({ agent: { webId: 'https://id.example/me' }})) };
    const authenticator = new Authenticator(BASE, tokens, extractor as unknown as CredentialsExtractor);
    expect(await authenticator.authenticate(request({ authorization: 'DPoP abc', dpop: 'proof' })))
      .toEqual({ webId: 'https://id.example/me' });
    extractor.handleSafe.mockRejectedValueOnce(new Error('bad proof'));
    await expect(authenticator.authenticate(request({ authorization: 'DPoP abc' }))).rejects.toMatchObject({ statusCode: 401 });
    extractor.handleSafe.mockResolvedValueOnce({});
    await expect(authenticator.authenticate(request({ authorization: 'Bearer other' }))).rejects.toMatchObject({ statusCode: 401 });
    await expect(new Authenticator(BASE, tokens).authenticate(request({ authorization: 'Basic YTpi' })))
      .rejects.toMatchObject({ statusCode: 401 });
  });

  it('takes a scheme without a token as no credential, as logged-out Solid clients send it', async() => {
    const extractor = { handleSafe: jest.fn() };
    const authenticator = new Authenticator(BASE, tokens, extractor as unknown as CredentialsExtractor);
    for (const authorization of [ 'dpop ', 'DPoP', 'Bearer   ', '' ]) {
      expect(await authenticator.authenticate(request({ authorization, dpop: '' }))).toEqual({});
    }
    expect(extractor.handleSafe).not.toHaveBeenCalled();
    await expect(new Authenticator(BASE, tokens).authenticate(request({ authorization: 'Bearer garbage' })))
      .rejects.toMatchObject({ statusCode: 401 });
  });

  it('checks a signed GET only when asked, refusing it where the setup does not federate; signed POSTs are their handler\'s', async() => {
    const authenticator = new Authenticator(BASE, tokens);
    const signed = request({ signature: 'keyId="k",signature="x"' });
    expect(await authenticator.authenticate(signed)).toEqual({});
    await expect(signed.resolveAgent()).rejects.toMatchObject({ statusCode: 401, errorCode: 'invalid_signature' });
    const post = request({ signature: 'keyId="k",signature="x"' }, 'POST');
    expect(await authenticator.authenticate(post)).toEqual({});
    expect(await post.resolveAgent()).toEqual({});
  });

  it('refuses a suspended or disabled account\'s token at once, and a suspended remote account\'s signed requests before any work', async() => {
    const measures = new AccountModerations(dataDir);
    const authenticator = new Authenticator(BASE, tokens, undefined, undefined, undefined, 100, undefined, undefined, measures);
    const token = await tokens.issue({ webId: `${BASE}actors/dan`, username: 'dan' });
    expect(await authenticator.authenticate(request({ authorization: `Bearer ${token}` }))).toMatchObject({ username: 'dan' });
    await measures.set(`${BASE}actors/dan`, 'suspended', true);
    await expect(authenticator.authenticate(request({ authorization: `Bearer ${token}` })))
      .rejects.toMatchObject({ statusCode: 401, errorCode: 'account_suspended' });
    await measures.set(`${BASE}actors/dan`, 'suspended', false);
    await measures.set(`${BASE}actors/dan`, 'disabled', true);
    await expect(authenticator.authenticate(request({ authorization: `Bearer ${token}` })))
      .rejects.toMatchObject({ statusCode: 401, errorCode: 'account_suspended' });
    await measures.set(`${BASE}actors/dan`, 'disabled', false);
    expect(await authenticator.authenticate(request({ authorization: `Bearer ${token}` }))).toMatchObject({ username: 'dan' });

    await measures.set('https://remote.example/users/eve', 'suspended', true);
    await expect(authenticator.authenticate(request({ signature: 'keyId="https://remote.example/users/eve#main-key",signature="x"' }, 'POST')))
      .rejects.toMatchObject({ statusCode: 403, errorCode: 'account_suspended' });
    expect(await authenticator.authenticate(request({ signature: 'keyId="https://remote.example/users/ann#main-key",signature="x"' }, 'POST')))
      .toEqual({});
  });
});
