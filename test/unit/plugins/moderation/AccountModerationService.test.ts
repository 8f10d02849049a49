import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountStore } from '../../../../src/plugins/accounts/AccountStore';
import { AccountModerations } from '../../../../src/plugins/moderation/AccountModerations';
import { AccountModerationService } from '../../../../src/plugins/moderation/AccountModerationService';
import { AuditLog } from '../../../../src/plugins/moderation/AuditLog';
import type { FlagForwarder } from '../../../../src/plugins/moderation/FlagForwarder';
import { Reports } from '../../../../src/plugins/moderation/Reports';
import type { Collections } from '../../../../src/storage/Collections';

const BASE = 'http://localhost/';
const DAN = `${BASE}actors/dan`;
const RITA = `${BASE}actors/rita`;
const EVE = 'https://remote.example/users/eve';

/** Collections in memory: the followers and following lists of local accounts. */
function memoryCollections(start: Record<string, string[]>): Collections & { lists: Map<string, string[]> } {
  const lists = new Map(Object.entries(start));
  return {
    lists,
    all: async(collection: string): Promise<string[]> => [ ...lists.get(collection) ?? [] ],
    remove: async(collection: string, item: string): Promise<void> => {
      lists.set(collection, (lists.get(collection) ?? []).filter((entry) => entry !== item));
    },
  } as unknown as Collections & { lists: Map<string, string[]> };
}

describe('AccountModerationService', () => {
  let dir: string;
  let collections: ReturnType<typeof memoryCollections>;
  let forwarder: { forward: jest.Mock };
  let audit: AuditLog;
  let service: AccountModerationService;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'account-moderation-'));
    collections = memoryCollections({
      [`${DAN}/followers`]: [ EVE, RITA ], [`${DAN}/following`]: [ EVE ],
      [`${RITA}/followers`]: [ DAN ], [`${RITA}/following`]: [ DAN, EVE ],
    });
    forwarder = { forward: jest.fn(async() => `${BASE}activities/flag-1`) };
    audit = new AuditLog(dir);
    const accounts = {
      list: async(): Promise<string[]> => [ 'dan', 'rita' ],
      findByUsername: async(name: string) => ([ 'dan', 'rita' ].includes(name) ? { username: name } : undefined),
    } as unknown as AccountStore;
    service = new AccountModerationService({ baseUrl: BASE, measures: new AccountModerations(dir), reports: new Reports(dir), audit,
      accounts, collections, forwarder: forwarder as unknown as FlagForwarder });
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('suspends a remote account: its follows with local accounts dropped both ways, the action in the audit log', async() => {
    expect(await service.act('olive', EVE, 'suspend')).toMatchObject({ actor: EVE, suspended: expect.any(String) });
    expect(collections.lists.get(`${DAN}/followers`)).toEqual([ RITA ]);
    expect(collections.lists.get(`${DAN}/following`)).toEqual([]);
    expect(collections.lists.get(`${RITA}/following`)).toEqual([ DAN ]);
    expect(await audit.list()).toEqual([ expect.objectContaining({ by: 'olive', action: 'account.suspend', target: EVE }) ]);
    expect(await service.undo('olive', EVE, 'unsuspend')).toEqual({ actor: EVE });
  });

  it('suspends a local account keeping everything of it; unsuspend lifts the measure', async() => {
    await service.act('operator', DAN, 'suspend');
    expect(collections.lists.get(`${RITA}/following`)).toEqual([ DAN, EVE ]);
    expect(await service.measures.isSuspended(DAN)).toBe(true);
    await service.undo('operator', DAN, 'unsuspend');
    expect(await service.measures.isSuspended(DAN)).toBe(false);
    expect((await audit.list()).map((entry) => entry.action).sort()).toEqual([ 'account.suspend', 'account.unsuspend' ]);
  });

  it('refuses unknown actions, unknown local accounts, this server\'s other IRIs and a remote login to disable', async() => {
    await expect(service.act('olive', DAN, 'ban' as 'none')).rejects.toMatchObject({ statusCode: 400 });
    await expect(service.act('olive', `${BASE}actors/nobody`, 'suspend')).rejects.toMatchObject({ statusCode: 404 });
    await expect(service.act('olive', `${BASE}actors/instance`, 'suspend')).rejects.toMatchObject({ statusCode: 400 });
    await expect(service.act('olive', `${BASE}objects/x/y`, 'suspend')).rejects.toMatchObject({ statusCode: 400 });
    await expect(service.act('olive', 'not an iri', 'silence')).rejects.toMatchObject({ statusCode: 400 });
    await expect(service.act('olive', EVE, 'disable')).rejects.toMatchObject({ statusCode: 400 });
    expect(await service.measures.list()).toEqual([]);
    expect(await audit.list()).toEqual([]);
  });

  it('files reports, forwarding only what is asked and remote; refuses bad ones before storing anything', async() => {
    const local = await service.report(RITA, { target: DAN, comment: 'rude', forward: true });
    expect(local).toMatchObject({ reporter: RITA, target: DAN, category: 'other', forwarded: false });
    const remote = await service.report(RITA, { target: EVE, statuses: [ `${EVE}/1`, `${EVE}/1` ], category: 'spam', forward: true });
    expect(remote).toMatchObject({ forwarded: true, flag: `${BASE}activities/flag-1`, statuses: [ `${EVE}/1` ] });
    expect(forwarder.forward).toHaveBeenCalledTimes(1);
    await expect(service.report(RITA, { target: DAN, category: 'nonsense' })).rejects.toMatchObject({ statusCode: 400 });
    await expect(service.report(RITA, { target: DAN, comment: 'x'.repeat(1001) })).rejects.toMatchObject({ statusCode: 400 });
    await expect(service.report(DAN, { target: DAN })).rejects.toMatchObject({ statusCode: 400 });
    expect(await service.reports.list()).toHaveLength(2);
  });

  it('resolves and reopens reports, and an action taken from a report resolves it; each in the audit log', async() => {
    const report = await service.report(RITA, { target: DAN });
    expect(await service.resolve('olive', report.id)).toMatchObject({ resolved: expect.any(String), resolvedBy: 'olive' });
    expect(await service.reopen('operator', report.id)).not.toHaveProperty('resolved');
    await expect(service.act('olive', EVE, 'silence', report.id)).rejects.toMatchObject({ statusCode: 404 });
    await service.act('olive', DAN, 'silence', report.id);
    expect(await service.reportFor(report.id)).toMatchObject({ actions: [ 'silence' ], resolvedBy: 'olive' });
    await expect(service.resolve('olive', 'nope')).rejects.toMatchObject({ statusCode: 404 });
    expect((await audit.list()).map((entry) => [ entry.by, entry.action ])).toEqual(expect.arrayContaining([
      [ 'olive', 'report.resolve' ], [ 'operator', 'report.reopen' ], [ 'olive', 'account.silence' ],
    ]));
  });
});
