import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Registrations } from '../../../../src/plugins/accounts/Registrations';
import { FedpodHttpError } from '../../../../src/util/HttpErrors';

async function refusal(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
    return undefined;
  } catch (error: unknown) {
    if (error instanceof FedpodHttpError) {
      return `${error.statusCode} ${error.errorCode}`;
    }
    throw error;
  }
}

describe('Registrations', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fedpod-registrations-'));
  });

  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses an unknown mode at start-up', () => {
    expect(() => new Registrations('maybe', dataDir)).toThrow('Unknown registration mode maybe');
  });

  it('admits anyone when open, nobody when closed, and pending accounts with their reason under approval', async() => {
    expect(await new Registrations('open', dataDir).admit({})).toEqual({ release: expect.any(Function) });
    expect(await refusal(new Registrations('closed', dataDir).admit({}))).toBe('403 registrations_closed');
    const approval = new Registrations('approval', dataDir);
    expect(await approval.admit({ reason: '  hello  ' })).toMatchObject({ status: 'pending', reason: 'hello' });
    expect(await approval.admit({})).toMatchObject({ status: 'pending' });
    expect(await refusal(approval.admit({ reason: 'x'.repeat(1001) }))).toBe('400 invalid_reason');
  });

  it('lets eight signups at once take no more uses of an invite than it has, and a failed signup give its use back', async() => {
    const registrations = new Registrations('invite', dataDir);
    const invite = await registrations.createInvite('alice', { maxUses: 3 });
    const results = await Promise.allSettled(Array.from({ length: 8 }, async() => registrations.admit({ invite: invite.code })));
    const admitted = results.filter((result): boolean => result.status === 'fulfilled');
    expect(admitted).toHaveLength(3);
    expect(await refusal(registrations.admit({ invite: invite.code }))).toBe('403 invalid_invite');
    // The second signup failed after all: its use is free again, and only that one.
    await (admitted[1] as PromiseFulfilledResult<{ release: () => Promise<void> }>).value.release();
    expect((await registrations.listInvites('alice'))[0].uses).toBe(2);
    expect(await registrations.admit({ invite: invite.code })).toMatchObject({ invite: invite.code });
    expect(await refusal(registrations.admit({ invite: invite.code }))).toBe('403 invalid_invite');
  });

  it('refuses unknown, malformed and expired codes, and limits it does not take', async() => {
    const registrations = new Registrations('invite', dataDir);
    expect(await refusal(registrations.admit({}))).toBe('403 invalid_invite');
    expect(await refusal(registrations.admit({ invite: '../../etc/passwd' }))).toBe('403 invalid_invite');
    expect(await refusal(registrations.admit({ invite: 'AAAAAAAAAAAAAAAA' }))).toBe('403 invalid_invite');
    const expired = await registrations.createInvite('operator', { expiresInSeconds: 1 });
    const file = path.join(dataDir, 'accounts', 'invites', expired.code, 'invite.json');
    fs.writeFileSync(file, JSON.stringify({ ...expired, expiresAt: new Date(Date.now() - 1000).toISOString() }));
    expect(await refusal(registrations.admit({ invite: expired.code }))).toBe('403 invalid_invite');
    expect(await refusal(registrations.createInvite('bob', { maxUses: 0 }))).toBe('400 invalid_body');
    expect(await refusal(registrations.createInvite('bob', { maxUses: 1.5 }))).toBe('400 invalid_body');
    expect(await refusal(registrations.createInvite('bob', { expiresInSeconds: '60' }))).toBe('400 invalid_body');
    expect(await registrations.listInvites('bob')).toEqual([]);
  });
});
