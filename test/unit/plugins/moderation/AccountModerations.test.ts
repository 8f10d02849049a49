import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileChangeCounter } from '../../../../src/plugins/cluster/FileChangeCounter';
import { AccountModerations } from '../../../../src/plugins/moderation/AccountModerations';

const DAN = 'http://localhost/actors/dan';
const REMOTE = 'https://remote.example/users/eve';

describe('AccountModerations', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'account-moderations-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts measures in force and lifts them, each on its own; a record with none left is removed', async() => {
    const measures = new AccountModerations(dir);
    expect(await measures.set(DAN, 'suspended', true)).toBe(true);
    expect(await measures.set(DAN, 'suspended', true)).toBe(false);
    expect(await measures.set(DAN, 'sensitive', true)).toBe(true);
    expect(await measures.isSuspended(DAN)).toBe(true);
    expect(await measures.isLocked(DAN)).toBe(true);
    expect(await measures.isSilenced(DAN)).toBe(true);
    expect(await measures.isSensitive(DAN)).toBe(true);
    expect(await measures.set(DAN, 'suspended', false)).toBe(true);
    expect(await measures.isLocked(DAN)).toBe(false);
    expect(await measures.isSilenced(DAN)).toBe(false);
    expect(await measures.get(DAN)).toEqual({ actor: DAN, sensitive: expect.any(String) });
    await measures.set(DAN, 'sensitive', false);
    expect(await measures.list()).toEqual([]);
  });

  it('a disabled login locks the account without hiding it', async() => {
    const measures = new AccountModerations(dir);
    await measures.set(DAN, 'disabled', true);
    expect(await measures.isLocked(DAN)).toBe(true);
    expect(await measures.isSuspended(DAN)).toBe(false);
    expect(await measures.isSilenced(DAN)).toBe(false);
  });

  it('keeps its records across instances, and another node\'s change is seen at once through the shared counter', async() => {
    const here = new AccountModerations(dir, new FileChangeCounter(dir, 'moderation-changes'));
    const there = new AccountModerations(dir, new FileChangeCounter(dir, 'moderation-changes'));
    expect(await there.isSuspended(REMOTE)).toBe(false);
    await here.set(REMOTE, 'suspended', true);
    expect(await there.isSuspended(REMOTE)).toBe(true);
    await here.set(REMOTE, 'suspended', false);
    expect(await there.isSuspended(REMOTE)).toBe(false);
    await here.set(DAN, 'silenced', true);
    expect((await new AccountModerations(dir).list()).map((record) => record.actor)).toEqual([ DAN ]);
  });
});
