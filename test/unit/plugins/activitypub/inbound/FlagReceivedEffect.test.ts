import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlagReceivedEffect } from '../../../../../src/plugins/activitypub/inbound/FlagReceivedEffect';
import type { AccountStore } from '../../../../../src/plugins/accounts/AccountStore';
import { AccountModerations } from '../../../../../src/plugins/moderation/AccountModerations';
import { AccountModerationService } from '../../../../../src/plugins/moderation/AccountModerationService';
import { AuditLog } from '../../../../../src/plugins/moderation/AuditLog';
import { DomainBlocks } from '../../../../../src/plugins/moderation/DomainBlocks';
import { Reports } from '../../../../../src/plugins/moderation/Reports';
import { MemoryCollections } from './MemoryCollections';

const BASE = 'https://pod.example/';
const REPORTER = 'https://remote.example/actor';

describe('FlagReceivedEffect', (): void => {
  it('keeps a report in the instance actor\'s inbox for the operator, not in the reported actor\'s', async(): Promise<void> => {
    const collections = new MemoryCollections();
    const flag = { id: 'https://remote.example/reports/1', type: 'Flag', actor: REPORTER,
      object: [ `${BASE}actors/alice`, `${BASE}objects/n1` ], content: 'spam\nforged line' };
    await new FlagReceivedEffect(BASE, collections.store()).apply({ activity: flag, sender: REPORTER, now: new Date() });
    expect(collections.of(`${BASE}actors/instance/inbox`)).toEqual([ flag.id ]);
    expect(collections.of(`${BASE}actors/alice/inbox`)).toEqual([]);
  });

  it('files a report per reported local account with this server\'s reported posts, once however often it arrives', async(): Promise<void> => {
    const dir = mkdtempSync(join(tmpdir(), 'flag-'));
    try {
      const collections = new MemoryCollections();
      const moderation = new AccountModerationService({ baseUrl: BASE, measures: new AccountModerations(dir), reports: new Reports(dir),
        audit: new AuditLog(dir), accounts: {} as AccountStore, collections: collections.store() });
      const effect = new FlagReceivedEffect(BASE, collections.store(), moderation);
      const flag = { id: 'https://remote.example/reports/2', type: 'Flag', actor: REPORTER,
        object: [ `${BASE}actors/alice`, `${BASE}objects/n1`, 'https://elsewhere.example/objects/2', `${BASE}actors/instance` ], content: 'spam' };
      await effect.apply({ activity: flag, sender: REPORTER, now: new Date() });
      await effect.apply({ activity: flag, sender: REPORTER, now: new Date() });
      expect(await moderation.reports.list()).toEqual([ expect.objectContaining({ reporter: REPORTER, target: `${BASE}actors/alice`,
        statuses: [ `${BASE}objects/n1` ], comment: 'spam', flag: flag.id, forwarded: false }) ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('drops a Flag from a domain blocked with reject_reports: nothing kept, nothing filed', async(): Promise<void> => {
    const dir = mkdtempSync(join(tmpdir(), 'flag-'));
    try {
      const collections = new MemoryCollections();
      const moderation = new AccountModerationService({ baseUrl: BASE, measures: new AccountModerations(dir), reports: new Reports(dir),
        audit: new AuditLog(dir), accounts: {} as AccountStore, collections: collections.store() });
      const blocks = new DomainBlocks(dir);
      await blocks.put({ domain: 'remote.example', severity: 'noop', rejectReports: true });
      const effect = new FlagReceivedEffect(BASE, collections.store(), moderation, blocks);
      const flag = { id: 'https://remote.example/reports/3', type: 'Flag', actor: REPORTER, object: [ `${BASE}actors/alice` ], content: 'spam' };
      await effect.apply({ activity: flag, sender: REPORTER, now: new Date() });
      expect(collections.of(`${BASE}actors/instance/inbox`)).toEqual([]);
      expect(await moderation.reports.list()).toEqual([]);
      // Another domain's Flag is filed as before.
      const other = { ...flag, id: 'https://other.example/reports/1', actor: 'https://other.example/actor' };
      await effect.apply({ activity: other, sender: 'https://other.example/actor', now: new Date() });
      expect(await moderation.reports.list()).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
