import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { say } from './Console';

/** The repository root (this file is dist/cli/Setups.js once built). */
export const ROOT = join(__dirname, '..', '..');

/** The setups in config/ (compiled at build by scripts/compile-configs.js). */
export const NAMED_SETUPS = [ 'activitypub', 'ldp', 'ldp-sparql', 'ldp-wac' ];

/** The config file of a named setup, or the path given. */
export function configFileOf(name: string): string {
  return NAMED_SETUPS.includes(name) ? join(ROOT, 'config', `${name}.json`) : resolve(name);
}

/** The newest modification time (ms) of the config files (`*.json`) under `directory`, at any depth. */
export function newestChange(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const file = join(directory, entry.name);
    if (entry.isDirectory()) {
      newest = Math.max(newest, newestChange(file));
    } else if (entry.name.endsWith('.json')) {
      // Only config files: the READMEs beside the parts change nothing a setup builds.
      newest = Math.max(newest, statSync(file).mtimeMs);
    }
  }
  return newest;
}

/** Where scripts/compile-configs.js writes the module of a setup (a name in NAMED_SETUPS, or a config file's path). */
export function compiledModuleOf(name: string): string {
  return NAMED_SETUPS.includes(name) ?
    join(ROOT, 'dist', 'compiled', `${name}.js`) :
    join(ROOT, 'dist', 'compiled', `path-${createHash('sha256').update(configFileOf(name)).digest('hex').slice(0, 16)}.js`);
}

/**
 * The module a setup was compiled to (dist/compiled/<name>.js for a named setup, made by `npm run
 * build`; dist/compiled/path-<hash>.js for a config file compiled by `npm run build:configs -- <file>`),
 * when it is newer than every file it was compiled from (config/, the components, and a config
 * file's own directory); otherwise undefined, and the config is read with Components.js as it is
 * (several seconds more).
 */
export function compiledSetup(name: string): string | undefined {
  const named = NAMED_SETUPS.includes(name);
  const configFile = configFileOf(name);
  const file = compiledModuleOf(name);
  if (!existsSync(file)) {
    return undefined;
  }
  const sources = Math.max(newestChange(join(ROOT, 'config')), statSync(join(ROOT, 'dist', 'components', 'components.jsonld')).mtimeMs,
    named ? 0 : newestChange(dirname(configFile)));
  if (sources > statSync(file).mtimeMs) {
    say(`${named ? 'config/' : configFile} changed since it was compiled: reading the config instead (npm run build makes start-up fast again)`, 'warn');
    return undefined;
  }
  return file;
}
