import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountService } from '../../../../src/plugins/accounts/AccountService';
import { OidcIssuer } from '../../../../src/plugins/accounts/OidcIssuer';
import { FileAccountStore } from '../../../../src/plugins/accounts/FileAccountStore';
import { PasswordHasher } from '../../../../src/plugins/accounts/PasswordHasher';
import { TokenService } from '../../../../src/plugins/accounts/TokenService';
import { ActorKeyStore } from '../../../../src/plugins/activitypub/ActorKeyStore';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../src/plugins/ldp/JsonLdParser';
import type { UserStorage } from '../../../../src/plugins/ldp/UserStorage';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../support/embeddedGraphs';

const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams#';
const PASSWORD = 'correct horse battery';

/** A user storage that fails to be made, recording what it was asked: the step after the actor document. */
class FailingStorage {
  public readonly removed: string[] = [];
  public storageOf(username: string): string {
    return `${BASE}pods/${username}/`;
  }

  public async create(): Promise<void> {
    throw new Error('storage is full');
  }

  public async remove(username: string): Promise<void> {
    this.removed.push(username);
  }
}

describe('AccountService', (): void => {
  let graphs: EmbeddedGraphs;
  let dataDir: string;
  let accounts: FileAccountStore;
  let keys: ActorKeyStore;
  let tokens: TokenService;
  let parser: JsonLdParser;
  let service: AccountService;

  function serviceWith(storage?: UserStorage): AccountService {
    return new AccountService({ baseUrl: BASE, dataDir, accounts, hasher: new PasswordHasher(), tokens, keys,
      store: graphs.resources, parser, storage, oidcIssuer: new OidcIssuer(BASE) });
  }

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
    parser = new JsonLdParser(BASE, new DocumentLoader(BASE));
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-account-service-'));
    accounts = new FileAccountStore(dataDir);
    keys = new ActorKeyStore(dataDir);
    tokens = new TokenService(BASE, dataDir);
    service = serviceWith();
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A username no other test uses: the store is shared by the file's tests. */
  let counter = 0;
  function fresh(): string {
    counter += 1;
    return `user${counter}`;
  }

  it('signs up: key pair, actor document in /actors/, account, and a token for the new WebID', async(): Promise<void> => {
    const username = fresh();
    const webId = `${BASE}actors/${username}`;
    const session = await service.signup({ username, email: `${username}@Example.org`, password: PASSWORD });
    expect(session.webId).toBe(webId);
    expect(await tokens.verify(session.token!)).toEqual({ webId, username, issuedMs: expect.any(Number) });
    expect(await accounts.findByUsername(username)).toMatchObject({ username, email: `${username}@example.org`, webId });
    const publicKey = await keys.publicKeyPem(username);
    expect(publicKey).toContain('BEGIN PUBLIC KEY');
    expect(await graphs.resources.children(`${BASE}actors/`)).toContain(webId);
    const actor = await graphs.resources.readData(webId);
    const value = (predicate: string): string | undefined => actor.find((entry): boolean => entry.subject.value === webId &&
      entry.predicate.value === predicate)?.object.value;
    expect(value(`${AS}outbox`)).toBe(`${webId}/outbox`);
    expect(value(`${AS}preferredUsername`)).toBe(username);
    expect(value('http://www.w3.org/ns/solid/terms#oidcIssuer')).toBe(BASE);
    expect(actor.some((entry): boolean => entry.object.value === publicKey)).toBe(true);
  });

  it('refuses a taken username or email with a 409 naming which, keeping the first account', async(): Promise<void> => {
    const username = fresh();
    await service.signup({ username, email: `${username}@example.org`, password: PASSWORD });
    await expect(service.signup({ username, email: 'other@example.org', password: PASSWORD }))
      .rejects.toMatchObject({ statusCode: 409, errorCode: 'username_taken', message: 'That username is taken.' });
    await expect(service.signup({ username: fresh(), email: `${username}@example.org`, password: PASSWORD }))
      .rejects.toMatchObject({ statusCode: 409, errorCode: 'email_taken', message: 'That email is taken.' });
    expect(await accounts.list()).toEqual([ username ]);
  });

  it('refuses an invalid signup before writing anything', async(): Promise<void> => {
    await expect(service.signup({ username: 'Bad Name', email: 'x@example.org', password: PASSWORD }))
      .rejects.toMatchObject({ statusCode: 400 });
    expect(await accounts.list()).toEqual([]);
    expect(existsSync(join(dataDir, 'actors'))).toBe(false);
  });

  it('undoes every step of a signup that fails after the actor document, leaving the name free', async(): Promise<void> => {
    const username = fresh();
    const webId = `${BASE}actors/${username}`;
    const storage = new FailingStorage();
    await expect(serviceWith(storage as unknown as UserStorage).signup({ username, email: `${username}@example.org`, password: PASSWORD }))
      .rejects.toThrow('storage is full');
    expect(await keys.publicKeyPem(username)).toBeUndefined();
    expect(await graphs.resources.exists(webId)).toBe(false);
    expect(await graphs.resources.children(`${BASE}actors/`)).not.toContain(webId);
    expect(await accounts.findByUsername(username)).toBeUndefined();
    expect(storage.removed).toEqual([ username ]);
    // The lock is gone too: the name can be signed up for at once.
    await expect(service.signup({ username, email: `${username}@example.org`, password: PASSWORD })).resolves.toMatchObject({ webId });
  });

  it('clears what a crashed signup for the name left before signing up', async(): Promise<void> => {
    const username = fresh();
    const leftover = await keys.create(username);
    const session = await service.signup({ username, email: `${username}@example.org`, password: PASSWORD });
    expect(session.webId).toBe(`${BASE}actors/${username}`);
    const publicKey = await keys.publicKeyPem(username);
    expect(publicKey).toContain('BEGIN PUBLIC KEY');
    expect(publicKey).not.toBe(leftover.publicKeyPem);
  });

  it('refuses a signup while another for the name holds its lock, and takes over a stale lock', async(): Promise<void> => {
    const username = fresh();
    const locks = join(dataDir, 'accounts', 'locks');
    mkdirSync(locks, { recursive: true });
    writeFileSync(join(locks, username), '12345');
    await expect(service.signup({ username, email: `${username}@example.org`, password: PASSWORD }))
      .rejects.toMatchObject({ statusCode: 409, errorCode: 'username_taken', message: 'A signup for that username is in progress.' });
    expect(await accounts.findByUsername(username)).toBeUndefined();
    // A lock two minutes old was left by a process that died.
    const old = new Date(Date.now() - 120_000);
    utimesSync(join(locks, username), old, old);
    await expect(service.signup({ username, email: `${username}@example.org`, password: PASSWORD })).resolves.toBeDefined();
    expect(existsSync(join(locks, username))).toBe(false);
  });

  describe('login', (): void => {
    let username: string;

    beforeEach(async(): Promise<void> => {
      username = fresh();
      await service.signup({ username, email: `${username}@example.org`, password: PASSWORD });
    });

    it('logs in by username or by email, whatever their case', async(): Promise<void> => {
      const webId = `${BASE}actors/${username}`;
      const byName = await service.login({ username: username.toUpperCase(), password: PASSWORD });
      expect(byName.webId).toBe(webId);
      expect(await tokens.verify(byName.token)).toEqual({ webId, username, issuedMs: expect.any(Number) });
      const byEmail = await service.login({ email: `${username.toUpperCase()}@EXAMPLE.org`, password: PASSWORD });
      expect(byEmail.webId).toBe(webId);
      expect((await service.authenticate({ username }, PASSWORD)).username).toBe(username);
    });

    it.each([
      [ 'a wrong password', (name: string): unknown => ({ username: name, password: 'wrong password' }) ],
      [ 'an unknown username', (): unknown => ({ username: 'nobody', password: PASSWORD }) ],
      [ 'an unknown email', (): unknown => ({ email: 'nobody@example.org', password: PASSWORD }) ],
    ])('answers %s with the same 401', async(what, body): Promise<void> => {
      await expect(service.login(body(username))).rejects.toMatchObject({ statusCode: 401, errorCode: 'invalid_credentials',
        message: 'Wrong username, email or password.' });
    });

    it.each([
      [ 'NUL', '\u0000' ],
      [ 'a newline', '\n' ],
      [ 'a C1 control', '\u0085' ],
    ])('answers the password followed by %s with the same 401, without hashing it', async(_, extra): Promise<void> => {
      const verify = jest.spyOn(PasswordHasher.prototype, 'verify');
      try {
        await expect(service.login({ username, password: `${PASSWORD}${extra}` })).rejects.toMatchObject({ statusCode: 401,
          errorCode: 'invalid_credentials', message: 'Wrong username, email or password.' });
        await expect(service.authenticate({ username }, `${PASSWORD}${extra}`)).rejects.toMatchObject({ statusCode: 401 });
        expect(verify).not.toHaveBeenCalled();
      } finally {
        verify.mockRestore();
      }
    });

    it.each([
      [ 'no body', undefined, 'The body must be a JSON object with username (or email) and password.' ],
      [ 'an array', [ 'x' ], 'The body must be a JSON object with username (or email) and password.' ],
      [ 'no password', { username: 'x' }, 'Send username (or email) and password as strings.' ],
      [ 'neither username nor email', { password: PASSWORD }, 'Send username (or email) and password as strings.' ],
      [ 'a numeric username', { username: 7, password: PASSWORD }, 'Send username (or email) and password as strings.' ],
    ])('refuses a login with %s as a bad request', async(what, body, message): Promise<void> => {
      await expect(service.login(body)).rejects.toMatchObject({ statusCode: 400, errorCode: 'invalid_body', message });
    });
  });
});
