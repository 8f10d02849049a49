import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newestChange } from '../../../src/cli/Setups';

describe('newestChange', (): void => {
  let dir: string;

  beforeEach((): void => {
    dir = mkdtempSync(join(tmpdir(), 'fedpod-setups-'));
  });

  afterEach((): void => {
    rmSync(dir, { recursive: true, force: true });
  });

  function write(path: string, seconds: number): void {
    writeFileSync(join(dir, path), '{}');
    utimesSync(join(dir, path), seconds, seconds);
  }

  it('takes the newest config file at any depth, and no README beside the parts', (): void => {
    mkdirSync(join(dir, 'parts', 'activitypub', 'components'), { recursive: true });
    write('setup.json', 1000);
    write(join('parts', 'activitypub', 'components', 'federation.json'), 2000);
    write(join('parts', 'README.md'), 5000);
    write(join('parts', 'activitypub', 'README.md'), 6000);
    expect(newestChange(dir)).toBe(2000 * 1000);
  });
});
