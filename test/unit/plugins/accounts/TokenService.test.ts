import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JWK, KeyLike } from 'jose';
import { importJWK, SignJWT } from 'jose';
import { TokenService } from '../../../../src/plugins/accounts/TokenService';
import { FileAccountStore } from '../../../../src/plugins/accounts/FileAccountStore';
import { FedpodHttpError } from '../../../../src/util/HttpErrors';
import { rejection } from '../../../support/rejection';

const BASE = 'https://pod.example/';
const WEB_ID = 'https://pod.example/actors/alice';
const CLAIMS = { webId: WEB_ID, username: 'alice' };

function keyFile(dataDir: string): string {
  return join(dataDir, 'keys', 'jwt-es256.json');
}

/** The private key a TokenService wrote to `dataDir`, to craft tokens the service's key really signed. */
async function serviceKey(dataDir: string): Promise<{ key: KeyLike; kid: string }> {
  const jwk = JSON.parse(readFileSync(keyFile(dataDir), 'utf8')) as JWK & { kid: string };
  return { key: await importJWK(jwk, 'ES256') as KeyLike, kid: jwk.kid };
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

async function httpRejection(promise: Promise<unknown>): Promise<FedpodHttpError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(FedpodHttpError);
  return error as FedpodHttpError;
}

async function expectInvalid(service: TokenService, token: string): Promise<void> {
  const error = await httpRejection(service.verify(token));
  expect(error.statusCode).toBe(401);
  expect(error.errorCode).toBe('invalid_token');
}

describe('TokenService', (): void => {
  let dataDir: string;
  let otherDir: string;

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-tokens-'));
    otherDir = mkdtempSync(join(tmpdir(), 'fedpod-tokens-other-'));
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(otherDir, { recursive: true, force: true });
  });

  it('verifies the tokens it issues and returns their claims', async(): Promise<void> => {
    const service = new TokenService(BASE, dataDir);
    const token = await service.issue(CLAIMS);
    expect(token.split('.')).toHaveLength(3);
    await expect(service.verify(token)).resolves.toEqual({ ...CLAIMS, issuedMs: expect.any(Number) });
  });

  it('issues tokens whose header and payload carry the documented claims', async(): Promise<void> => {
    const service = new TokenService(BASE, dataDir, 3600);
    const before = Math.floor(Date.now() / 1000);
    const token = await service.issue(CLAIMS);
    const after = Math.floor(Date.now() / 1000);
    const [ header, payload ] = token.split('.').slice(0, 2).map((part): Record<string, unknown> =>
      JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>);
    expect(header).toEqual(expect.objectContaining({ alg: 'ES256', typ: 'JWT' }));
    expect(payload).toEqual(expect.objectContaining({
      webId: WEB_ID, sub: WEB_ID, preferred_username: 'alice', iss: BASE,
    }));
    expect(payload.iat).toBeGreaterThanOrEqual(before);
    expect(payload.iat).toBeLessThanOrEqual(after);
    expect(payload.exp).toBeGreaterThanOrEqual(before + 3600);
    expect(payload.exp).toBeLessThanOrEqual(after + 3600);
  });

  it('creates its key file once, readable by its owner only, and reuses it in another instance', async(): Promise<void> => {
    const first = new TokenService(BASE, dataDir);
    const token = await first.issue(CLAIMS);
    const stat = statSync(keyFile(dataDir));
    expect(stat.mode & 0o777).toBe(0o600);
    const content = readFileSync(keyFile(dataDir), 'utf8');

    const second = new TokenService(BASE, dataDir);
    await expect(second.verify(token)).resolves.toEqual({ ...CLAIMS, issuedMs: expect.any(Number) });
    await expect(first.verify(await second.issue(CLAIMS))).resolves.toEqual({ ...CLAIMS, issuedMs: expect.any(Number) });
    // The second instance read the key; it did not replace it.
    expect(readFileSync(keyFile(dataDir), 'utf8')).toBe(content);
    expect(statSync(keyFile(dataDir)).ino).toBe(stat.ino);
  });

  it('ends with one shared key when two instances start on a fresh directory at once', async(): Promise<void> => {
    const first = new TokenService(BASE, dataDir);
    const second = new TokenService(BASE, dataDir);
    const [ fromFirst, fromSecond ] = await Promise.all([ first.issue(CLAIMS), second.issue(CLAIMS) ]);
    await expect(second.verify(fromFirst)).resolves.toEqual({ ...CLAIMS, issuedMs: expect.any(Number) });
    await expect(first.verify(fromSecond)).resolves.toEqual({ ...CLAIMS, issuedMs: expect.any(Number) });
  });

  it('treats a base URL with and without a trailing slash as the same issuer', async(): Promise<void> => {
    const token = await new TokenService('https://pod.example', dataDir).issue(CLAIMS);
    await expect(new TokenService('https://pod.example/', dataDir).verify(token)).resolves.toEqual({ ...CLAIMS, issuedMs: expect.any(Number) });
  });

  it('refuses a token signed with the key of another data directory', async(): Promise<void> => {
    const foreign = await new TokenService(BASE, otherDir).issue(CLAIMS);
    await expectInvalid(new TokenService(BASE, dataDir), foreign);
  });

  it('refuses a token of another issuer, even one signed with its own key', async(): Promise<void> => {
    const token = await new TokenService('https://elsewhere.example/', dataDir).issue(CLAIMS);
    const error = await httpRejection(new TokenService(BASE, dataDir).verify(token));
    expect(error.statusCode).toBe(401);
    expect(error.errorCode).toBe('invalid_token');
    expect(error.headers['www-authenticate']).toBe('Bearer');
  });

  it('refuses an expired token with token_expired', async(): Promise<void> => {
    const service = new TokenService(BASE, dataDir);
    await service.issue(CLAIMS);
    const { key, kid } = await serviceKey(dataDir);
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ webId: WEB_ID, preferred_username: 'alice' })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .setSubject(WEB_ID)
      .setIssuer(BASE)
      .setIssuedAt(now - 3600)
      .setExpirationTime(now - 60)
      .sign(key);
    const error = await httpRejection(service.verify(expired));
    expect(error.statusCode).toBe(401);
    expect(error.errorCode).toBe('token_expired');
  });

  it('refuses its own token once its lifetime has passed', async(): Promise<void> => {
    const service = new TokenService(BASE, dataDir, 1);
    const token = await service.issue(CLAIMS);
    await new Promise((resolve): void => {
      setTimeout(resolve, 2100);
    });
    const error = await httpRejection(service.verify(token));
    expect(error.statusCode).toBe(401);
    expect(error.errorCode).toBe('token_expired');
  });

  it('accepts a token crafted with its key and every claim (the crafting helper is sound)', async(): Promise<void> => {
    const service = new TokenService(BASE, dataDir);
    await service.issue(CLAIMS);
    const { key, kid } = await serviceKey(dataDir);
    const token = await new SignJWT({ webId: WEB_ID, preferred_username: 'alice' })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setSubject(WEB_ID)
      .setIssuer(BASE)
      .setExpirationTime('1h')
      .sign(key);
    await expect(service.verify(token)).resolves.toEqual({ ...CLAIMS, issuedMs: expect.any(Number) });
  });

  it('refuses tokens signed with its key that lack a required claim or whose sub is not the WebID', async(): Promise<void> => {
    const service = new TokenService(BASE, dataDir);
    await service.issue(CLAIMS);
    const { key, kid } = await serviceKey(dataDir);
    const sign = async(payload: Record<string, unknown>, subject?: string, expires = true): Promise<string> => {
      let jwt = new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid }).setIssuer(BASE);
      if (subject) {
        jwt = jwt.setSubject(subject);
      }
      if (expires) {
        jwt = jwt.setExpirationTime('1h');
      }
      return jwt.sign(key);
    };
    await expectInvalid(service, await sign({ webId: WEB_ID, preferred_username: 'alice' }, 'https://pod.example/actors/bob'));
    await expectInvalid(service, await sign({ preferred_username: 'alice' }, WEB_ID));
    await expectInvalid(service, await sign({ webId: WEB_ID }, WEB_ID));
    await expectInvalid(service, await sign({ webId: WEB_ID, preferred_username: 'alice' }));
    // No exp: a token that never expires is not one of ours.
    await expectInvalid(service, await sign({ webId: WEB_ID, preferred_username: 'alice' }, WEB_ID, false));
  });

  it('refuses an unsigned token (alg none)', async(): Promise<void> => {
    const service = new TokenService(BASE, dataDir);
    const now = Math.floor(Date.now() / 1000);
    const payload = { webId: WEB_ID, sub: WEB_ID, preferred_username: 'alice', iss: BASE, iat: now, exp: now + 3600 };
    await expectInvalid(service, `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.`);
    // Same, with the signature of a real token pasted on.
    const real = (await service.issue(CLAIMS)).split('.')[2];
    await expectInvalid(service, `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.${real}`);
  });

  it('refuses a token signed with another algorithm (HS256)', async(): Promise<void> => {
    const service = new TokenService(BASE, dataDir);
    await service.issue(CLAIMS);
    const token = await new SignJWT({ webId: WEB_ID, preferred_username: 'alice' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(WEB_ID)
      .setIssuer(BASE)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a shared secret that is long enough!!'));
    await expectInvalid(service, token);
  });

  it('refuses a token whose payload was changed after signing', async(): Promise<void> => {
    const service = new TokenService(BASE, dataDir);
    const [ header, payload, signature ] = (await service.issue(CLAIMS)).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const bob = 'https://pod.example/actors/bob';
    const forged = base64url({ ...claims, webId: bob, sub: bob, preferred_username: 'bob' });
    await expectInvalid(service, `${header}.${forged}.${signature}`);
    // And a flipped signature byte on an untouched token.
    const flipped = Buffer.from(signature, 'base64url');
    flipped[10] ^= 0xff;
    await expectInvalid(service, `${header}.${payload}.${flipped.toString('base64url')}`);
  });

  it('refuses strings that are not JWTs', async(): Promise<void> => {
    const service = new TokenService(BASE, dataDir);
    for (const token of [ '', 'abc', 'a.b.c', '...', 'not a token at all' ]) {
      await expectInvalid(service, token);
    }
  });

  describe('isOwnToken', (): void => {
    it('is true for its own tokens and for any JWT-shaped string naming its issuer', async(): Promise<void> => {
      const service = new TokenService(BASE, dataDir);
      expect(service.isOwnToken(await service.issue(CLAIMS))).toBe(true);
      // It does not verify: an unsigned token with the issuer still "looks like" one of ours.
      expect(service.isOwnToken(`${base64url({ alg: 'none' })}.${base64url({ iss: BASE })}.`)).toBe(true);
      expect(new TokenService('https://pod.example', dataDir).isOwnToken(`x.${base64url({ iss: BASE })}.y`)).toBe(true);
    });

    it('is false for tokens of other issuers and for strings that are not JWTs', async(): Promise<void> => {
      const service = new TokenService(BASE, dataDir);
      const foreign = await new TokenService('https://elsewhere.example/', otherDir).issue(CLAIMS);
      expect(service.isOwnToken(foreign)).toBe(false);
      expect(service.isOwnToken(`x.${base64url({ iss: 'https://pod.example' })}.y`)).toBe(false);
      expect(service.isOwnToken(`x.${base64url({ sub: WEB_ID })}.y`)).toBe(false);
      expect(service.isOwnToken('')).toBe(false);
      expect(service.isOwnToken('opaque-access-token')).toBe(false);
      expect(service.isOwnToken('a.!!!not-base64-json!!!.c')).toBe(false);
      expect(service.isOwnToken(`x.${Buffer.from('not json').toString('base64url')}.y`)).toBe(false);
      expect(service.isOwnToken(`x.${base64url(null)}.y`)).toBe(false);
    });

    it('does not touch the data directory', (): void => {
      const service = new TokenService(BASE, dataDir);
      service.isOwnToken(`x.${base64url({ iss: BASE })}.y`);
      expect((): unknown => statSync(keyFile(dataDir))).toThrow();
    });
  });
});

describe('TokenService with the accounts', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-tokens-accounts-'));
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a token issued before the password changed, or of an account that is gone', async() => {
    const accounts = new FileAccountStore(dataDir, 0);
    const account = { username: 'alice', email: 'alice@example.org', webId: CLAIMS.webId, passwordHash: 'x', created: new Date().toISOString() };
    await accounts.create(account);
    const service = new TokenService(BASE, dataDir, 3600, accounts);
    const before = await service.issue(CLAIMS);
    await expect(service.verify(before)).resolves.toMatchObject(CLAIMS);
    await accounts.update({ ...account, credentialsChanged: new Date().toISOString() });
    await expect(service.verify(before)).rejects.toMatchObject({ statusCode: 401, errorCode: 'token_revoked' });
    const after = await service.issue(CLAIMS);
    await expect(service.verify(after)).resolves.toMatchObject(CLAIMS);
    await accounts.remove('alice');
    await expect(service.verify(after)).rejects.toMatchObject({ statusCode: 401, errorCode: 'token_revoked' });
  });
});
