import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { compiledModuleOf, compiledSetup, configFileOf, NAMED_SETUPS, newestChange, ROOT } from '../../../src/cli/Setups';

describe('Setups', (): void => {
  it('finds the repository root, where config/ is', (): void => {
    expect(existsSync(path.join(ROOT, 'package.json'))).toBe(true);
    for (const name of NAMED_SETUPS) {
      expect(existsSync(configFileOf(name))).toBe(true);
    }
  });

  it('maps a named setup to config/<name>.json, and anything else to its absolute path', (): void => {
    expect(configFileOf('ldp')).toBe(path.join(ROOT, 'config', 'ldp.json'));
    expect(configFileOf('my/setup.json')).toBe(path.resolve('my/setup.json'));
  });

  it('compiles a named setup to dist/compiled/<name>.js, a config file to a name hashed from its path', (): void => {
    expect(compiledModuleOf('activitypub')).toBe(path.join(ROOT, 'dist', 'compiled', 'activitypub.js'));
    const custom = compiledModuleOf('/srv/a.json');
    expect(custom).toMatch(/[/\\]dist[/\\]compiled[/\\]path-[0-9a-f]{16}\.js$/u);
    expect(compiledModuleOf('/srv/a.json')).toBe(custom);
    expect(compiledModuleOf('/srv/b.json')).not.toBe(custom);
  });

  it('has no compiled module for a config that was never compiled', (): void => {
    expect(compiledSetup(path.join(ROOT, 'never-compiled', 'setup.json'))).toBeUndefined();
  });
});

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
