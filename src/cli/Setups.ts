import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { say } from './Console';

/** The repository root (this file is dist/cli/Setups.js once built). */
export const ROOT = join(__dirname, '..', '..');

/** The setups in config/ (compiled at build by scripts/compile-configs.js). */
export const NAMED_SETUPS = [ 'activitypub', 'ldp', 'ldp-sparql', 'ldp-wac' ];

/**
 * Where the job queues, the resource locks and the change counters live: each backend is a config
 * part, config/parts/backend/<backend>.json, that `fedpod start` loads with the setup (--backend).
 */
export const BACKENDS = [ 'local', 'redis' ] as const;
export type Backend = typeof BACKENDS[number];

/** The config part of a backend. */
export function backendPartOf(backend: Backend): string {
  return join(ROOT, 'config', 'parts', 'backend', `${backend}.json`);
}

/**
 * The backend part a config file imports itself, directly or through the files it imports
 * (`fedpod:config/...` and relative imports are followed); undefined when it imports none.
 */
export function importedBackend(configFile: string, seen = new Set<string>()): Backend | undefined {
  const backend = BACKENDS.find((name): boolean => backendPartOf(name) === configFile);
  if (backend || seen.has(configFile) || !existsSync(configFile)) {
    return backend;
  }
  seen.add(configFile);
  let imports: unknown;
  try {
    imports = (JSON.parse(readFileSync(configFile, 'utf8')) as { import?: unknown }).import;
  } catch {
    // Not JSON: Components.js says so when it loads the file.
    return undefined;
  }
  for (const imported of Array.isArray(imports) ? imports : []) {
    if (typeof imported !== 'string') {
      continue;
    }
    // Fedpod's parts and files beside the config; other modules' configs (css:...) and URLs hold no backend part.
    const file = imported.startsWith('fedpod:') ? join(ROOT, imported.slice('fedpod:'.length)) :
      /^[\w@.-]+:/u.test(imported) ? undefined : resolve(dirname(configFile), imported);
    const found = file === undefined ? undefined : importedBackend(file, seen);
    if (found) {
      return found;
    }
  }
  return undefined;
}

/**
 * The config files a setup is loaded from on a backend: the setup's file, and the backend's part
 * unless the setup imports a backend part itself (then that one is its backend).
 */
export function setupFilesOf(name: string, backend: Backend): string[] {
  const configFile = configFileOf(name);
  return importedBackend(configFile) ? [ configFile ] : [ configFile, backendPartOf(backend) ];
}

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

/**
 * Where scripts/compile-configs.js writes the module of a setup (a name in NAMED_SETUPS, or a config
 * file's path) on a backend.
 */
export function compiledModuleOf(name: string, backend: Backend): string {
  return NAMED_SETUPS.includes(name) ?
    join(ROOT, 'dist', 'compiled', `${name}.${backend}.js`) :
    join(ROOT, 'dist', 'compiled', `path-${createHash('sha256').update(configFileOf(name)).digest('hex').slice(0, 16)}.${backend}.js`);
}

/**
 * The module a setup was compiled to on a backend (dist/compiled/<name>.<backend>.js for a named
 * setup, made by `npm run build`; dist/compiled/path-<hash>.<backend>.js for a config file compiled
 * by `npm run build:configs -- <file>`),
 * when it is newer than every file it was compiled from (config/, the components, and a config
 * file's own directory); otherwise undefined, and the config is read with Components.js as it is
 * (several seconds more).
 */
export function compiledSetup(name: string, backend: Backend): string | undefined {
  const named = NAMED_SETUPS.includes(name);
  const configFile = configFileOf(name);
  const file = compiledModuleOf(name, backend);
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
