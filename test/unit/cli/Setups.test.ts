import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { backendPartOf, compiledModuleOf, compiledSetup, configFileOf, importedBackend, NAMED_SETUPS, newestChange, ROOT, setupFilesOf }
  from '../../../src/cli/Setups';

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

  it('compiles a named setup to dist/compiled/<name>.<backend>.js, a config file to a name hashed from its path', (): void => {
    expect(compiledModuleOf('activitypub', 'redis')).toBe(path.join(ROOT, 'dist', 'compiled', 'activitypub.redis.js'));
    const custom = compiledModuleOf('/srv/a.json', 'local');
    expect(custom).toMatch(/[/\\]dist[/\\]compiled[/\\]path-[0-9a-f]{16}\.local\.js$/u);
    expect(compiledModuleOf('/srv/a.json', 'local')).toBe(custom);
    expect(compiledModuleOf('/srv/a.json', 'redis')).not.toBe(custom);
    expect(compiledModuleOf('/srv/b.json', 'local')).not.toBe(custom);
  });

  it('has no compiled module for a config that was never compiled', (): void => {
    expect(compiledSetup(path.join(ROOT, 'never-compiled', 'setup.json'), 'local')).toBeUndefined();
  });

  it('loads a named setup with the backend part chosen, which each backend has in config/parts/backend/', (): void => {
    for (const name of NAMED_SETUPS) {
      expect(importedBackend(configFileOf(name))).toBeUndefined();
      expect(setupFilesOf(name, 'redis')).toEqual([ configFileOf(name), path.join(ROOT, 'config', 'parts', 'backend', 'redis.json') ]);
      expect(setupFilesOf(name, 'local')).toEqual([ configFileOf(name), backendPartOf('local') ]);
    }
    expect(existsSync(backendPartOf('local'))).toBe(true);
    expect(existsSync(backendPartOf('redis'))).toBe(true);
  });
});

describe('importedBackend', (): void => {
  let dir: string;

  beforeEach((): void => {
    dir = mkdtempSync(join(tmpdir(), 'fedpod-backend-'));
  });

  afterEach((): void => {
    rmSync(dir, { recursive: true, force: true });
  });

  function config(file: string, imports: string[]): string {
    writeFileSync(join(dir, file), JSON.stringify({ import: imports }));
    return join(dir, file);
  }

  it('finds a backend part a config imports, directly or through a file beside it, and then loads the config alone', (): void => {
    const direct = config('direct.json', [ 'css:config/app/main/default.json', 'fedpod:config/parts/css-base.json', 'fedpod:config/parts/backend/redis.json' ]);
    expect(importedBackend(direct)).toBe('redis');
    expect(setupFilesOf(direct, 'local')).toEqual([ direct ]);
    config('mine.json', [ 'fedpod:config/parts/backend/local.json' ]);
    // A cycle of imports ends; a file that is missing or not JSON is left to Components.js.
    writeFileSync(join(dir, 'broken.json'), 'not json');
    const nested = config('nested.json', [ 'missing.json', './broken.json', './nested.json', './mine.json' ]);
    expect(importedBackend(nested)).toBe('local');
  });

  it('finds none in a config that imports only other parts, which is then loaded with the backend chosen', (): void => {
    const plain = config('plain.json', [ 'fedpod:config/parts/css-base.json', 'https://example.org/x.json' ]);
    expect(importedBackend(plain)).toBeUndefined();
    expect(setupFilesOf(plain, 'local')).toEqual([ plain, backendPartOf('local') ]);
  });

  it('finds the one the test setup on Redis imports itself', (): void => {
    expect(importedBackend(path.join(ROOT, 'test', 'fixtures', 'config', 'activitypub-short-lock-wait.json'))).toBe('redis');
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
