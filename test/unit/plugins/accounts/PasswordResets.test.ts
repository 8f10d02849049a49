import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileAccountStore } from '../../../../src/plugins/accounts/FileAccountStore';
import type { Mail, Mailer } from '../../../../src/plugins/accounts/Mailer';
import { PasswordHasher } from '../../../../src/plugins/accounts/PasswordHasher';
import { PasswordResets } from '../../../../src/plugins/accounts/PasswordResets';

const BASE = 'https://pod.example/';

/** A mailer that keeps what it is given, or refuses everything. */
function mailer(enabled: boolean, sent: Mail[], fails = false): Mailer {
  return {
    enabled,
    send: async(mail: Mail): Promise<void> => {
      if (fails) {
        throw new Error('relay down');
      }
      sent.push(mail);
    },
  } as unknown as Mailer;
}

function tokenOf(mail: Mail): string {
  return new URL(/https:\S+reset\S+/u.exec(mail.text)![0]).searchParams.get('token')!;
}

describe('PasswordResets', (): void => {
  let dataDir: string;
  let accounts: FileAccountStore;
  const hasher = new PasswordHasher();

  beforeEach(async(): Promise<void> => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-password-resets-'));
    // No cache: each test reads what was just written.
    accounts = new FileAccountStore(dataDir, 0);
    await accounts.create({ username: 'alice', email: 'alice@example.org', webId: `${BASE}actors/alice`,
      passwordHash: await hasher.hash('old password here'), created: new Date().toISOString() });
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses with 404 when no mail is sent, and sends none', async(): Promise<void> => {
    const sent: Mail[] = [];
    await expect(new PasswordResets(BASE, accounts, hasher, mailer(false, sent)).request('alice'))
      .rejects.toMatchObject({ statusCode: 404, errorCode: 'password_reset_unavailable' });
    expect(sent).toHaveLength(0);
  });

  it('mails a link by email or username, nothing for an unknown account, and stores only a digest', async(): Promise<void> => {
    const sent: Mail[] = [];
    const resets = new PasswordResets(BASE, accounts, hasher, mailer(true, sent));
    await resets.request('nobody');
    await resets.request('ALICE@example.org ');
    await new Promise((resolve): void => {
      setImmediate(resolve);
    });
    expect(sent).toHaveLength(1);
    expect(sent[0].to).toBe('alice@example.org');
    const token = tokenOf(sent[0]);
    expect(JSON.stringify(await accounts.findByUsername('alice'))).not.toContain(token);
    await expect(resets.check('alice', token)).resolves.toBe('alice');
  });

  it('sets the password once, revoking earlier tokens', async(): Promise<void> => {
    const sent: Mail[] = [];
    const resets = new PasswordResets(BASE, accounts, hasher, mailer(true, sent));
    await resets.request('alice');
    await new Promise((resolve): void => {
      setImmediate(resolve);
    });
    const token = tokenOf(sent[0]);
    await expect(resets.complete('alice', token, 'new password here')).resolves.toBe('alice');
    const account = (await accounts.findByUsername('alice'))!;
    expect(await hasher.verify('new password here', account.passwordHash)).toBe(true);
    expect(account.credentialsChanged).toBeDefined();
    expect(account.passwordReset).toBeUndefined();
    await expect(resets.complete('alice', token, 'another password')).rejects.toMatchObject({ statusCode: 400, errorCode: 'invalid_reset' });
  });

  it('refuses an expired link with 410 and changes nothing', async(): Promise<void> => {
    const sent: Mail[] = [];
    const resets = new PasswordResets(BASE, accounts, hasher, mailer(true, sent));
    await resets.request('alice');
    await new Promise((resolve): void => {
      setImmediate(resolve);
    });
    const account = (await accounts.findByUsername('alice'))!;
    await accounts.update({ ...account, passwordReset: { ...account.passwordReset!, expiresAt: new Date(Date.now() - 1000).toISOString() }});
    await expect(resets.complete('alice', tokenOf(sent[0]), 'new password here')).rejects.toMatchObject({ statusCode: 410, errorCode: 'reset_expired' });
    expect(await hasher.verify('old password here', (await accounts.findByUsername('alice'))!.passwordHash)).toBe(true);
  });

  it('answers a request alike when the mail cannot be sent', async(): Promise<void> => {
    await expect(new PasswordResets(BASE, accounts, hasher, mailer(true, [], true)).request('alice')).resolves.toBeUndefined();
  });
});
