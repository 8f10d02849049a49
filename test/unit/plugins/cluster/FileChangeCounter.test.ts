import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileChangeCounter } from '../../../../src/plugins/cluster/FileChangeCounter';

describe('FileChangeCounter', (): void => {
  let dataDir: string;

  beforeEach(async(): Promise<void> => {
    dataDir = await fs.mkdtemp(path.join(tmpdir(), 'fedpod-changes-'));
  });

  afterEach(async(): Promise<void> => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('reads 0 before any bump, and a new value after each bump', async(): Promise<void> => {
    const counter = new FileChangeCounter(dataDir, 'webhook-revocations');
    const seen = [ await counter.read() ];
    for (let index = 0; index < 3; index += 1) {
      await counter.bump();
      seen.push(await counter.read());
    }
    expect(seen[0]).toBe('0');
    expect(new Set(seen).size).toBe(4);
  });

  it('is shared by instances on one data directory (as by processes), concurrent bumps all counting', async(): Promise<void> => {
    const first = new FileChangeCounter(dataDir, 'webhook-revocations');
    const second = new FileChangeCounter(dataDir, 'webhook-revocations');
    const before = await second.read();
    await Promise.all(Array.from({ length: 20 }, async(_unused, index): Promise<void> => (index % 2 === 0 ? first : second).bump()));
    expect(await first.read()).toBe(await second.read());
    expect(Number(await second.read()) - Number(before)).toBe(20);
    expect(await new FileChangeCounter(dataDir, 'other').read()).toBe('0');
  });

  it('refuses a name that is not a plain file name', (): void => {
    for (const name of [ '../x', '', 'a/b', 'A' ]) {
      expect((): FileChangeCounter => new FileChangeCounter(dataDir, name)).toThrow('Invalid change counter name');
    }
  });
});
