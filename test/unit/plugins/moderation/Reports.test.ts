import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Reports } from '../../../../src/plugins/moderation/Reports';

describe('Reports', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'reports-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const input = (reporter: string, target: string): Parameters<Reports['create']>[0] =>
    ({ reporter, target, statuses: [], comment: '', category: 'other', forwarded: false });

  it('lists newest first, by state, reporter and target; an instance on the same directory reads them all', async() => {
    const reports = new Reports(dir);
    const first = await reports.create(input('r1', 't1'), new Date('2026-01-01T00:00:00Z'));
    const second = await reports.create(input('r2', 't1'), new Date('2026-01-02T00:00:00Z'));
    expect(first.id < second.id).toBe(true);
    await reports.update({ ...first, resolved: '2026-01-03T00:00:00.000Z', resolvedBy: 'olive' });
    const again = new Reports(dir);
    expect((await again.list()).map((report) => report.id)).toEqual([ second.id, first.id ]);
    expect((await again.list({ open: true })).map((report) => report.id)).toEqual([ second.id ]);
    expect((await again.list({ open: false })).map((report) => report.id)).toEqual([ first.id ]);
    expect((await again.list({ reporter: 'r1' })).map((report) => report.id)).toEqual([ first.id ]);
    expect(await again.list({ target: 't2' })).toEqual([]);
    expect(await again.get(second.id)).toMatchObject({ reporter: 'r2', actions: []});
    expect(await again.get('nope')).toBeUndefined();
  });
});
