#!/usr/bin/env node
'use strict';
// Compiles each named setup's Components.js config (config/<name>.json) with each backend part
// (config/parts/backend/<backend>.json) to a JavaScript module, dist/compiled/<name>.<backend>.js,
// that builds the server's App from the run's variables without reading any JSON-LD: `fedpod start`
// then skips Components.js's config loading, most of its start-up time. Config files given as
// arguments are compiled too, to dist/compiled/path-<hash of the absolute path>.<backend>.js
// (`npm run build:configs -- my-setup.json`), for `fedpod start --config my-setup.json`. A config
// that imports a backend part itself is compiled with that one only.
// Run by `npm run build`; a config edited since is noticed at start (it is then read instead).
// A module whose inputs (the config files, the component descriptions, the installed packages, this
// script) are unchanged since it was written is kept, only touched so that it stays newer than them:
// so `npm test`, which compiles the tests' setups after the build, does not compile a setup twice.
const { spawn } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ComponentsManager } = require('componentsjs');
const { ConstructionStrategyCommonJsString } = require('componentsjs/lib/construction/strategy/ConstructionStrategyCommonJsString');

// Components.js writes a string value between single quotes as it is, so a config string holding a quote
// or a backslash made a module that does not parse: strings are written as JSON string literals instead.
class QuotingStrategy extends ConstructionStrategyCommonJsString {
  createPrimitive(options) {
    return typeof options.value === 'string' ? JSON.stringify(options.value) : super.createPrimitive(options);
  }
}

// The same names and places `fedpod start` looks for (built by build:ts, which runs first).
const { BACKENDS, NAMED_SETUPS, compiledModuleOf, configFileOf, importedBackend, setupFilesOf } = require('../dist/cli/Setups');

const ROOT = path.join(__dirname, '..');

async function compile(configFiles) {
  const strategy = new QuotingStrategy({ asFunction: true, req: require });
  const manager = await ComponentsManager.build({
    mainModulePath: ROOT,
    constructionStrategy: strategy,
    // As CSS's AppRunner loads configs: CSS's own configs do not pass Components.js's type checks.
    typeChecking: false,
    skipContextValidation: true,
    logLevel: 'error',
    configLoader: async(registry) => {
      for (const file of configFiles) {
        await registry.register(file);
      }
    },
  });
  const variable = await manager.instantiate('urn:solid-server:default:App');
  // The module sits in dist/compiled/: Fedpod's own classes are one directory up.
  return strategy.serializeDocument(variable).replaceAll('require(\'./dist/index.js\')', 'require(\'../index.js\')');
}

/** The config files (`*.json`) under `directory`, at any depth, in a stable order. */
function configFiles(directory) {
  const files = [];
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      files.push(...configFiles(file));
    } else if (entry.name.endsWith('.json')) {
      files.push(file);
    }
  }
  return files.sort();
}

/** A digest of everything a compiled module is made from. */
function inputsKey(sources) {
  const source = sources[0];
  const hash = createHash('sha256');
  const inputs = [ ...configFiles(path.join(ROOT, 'config')), ...sources, path.join(ROOT, 'dist', 'components', 'components.jsonld'),
    path.join(ROOT, 'dist', 'components', 'context.jsonld'), path.join(ROOT, 'package-lock.json'), __filename ];
  if (!source.startsWith(path.join(ROOT, 'config') + path.sep)) {
    // A config file elsewhere may import its neighbours.
    inputs.push(...configFiles(path.dirname(source)));
  }
  for (const file of inputs) {
    hash.update(file).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** Whether `target` was compiled from inputs with this key (its first line names the key). */
function upToDate(target, key) {
  if (!fs.existsSync(target)) {
    return false;
  }
  const fd = fs.openSync(target, 'r');
  try {
    const head = Buffer.alloc(512);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, read).toString('utf8').split('\n')[0].includes(`inputs ${key}`);
  } finally {
    fs.closeSync(fd);
  }
}

(async() => {
  fs.mkdirSync(path.join(ROOT, 'dist', 'compiled'), { recursive: true });
  const names = [ ...new Set([ ...NAMED_SETUPS, ...process.argv.slice(2) ]) ];
  const jobs = names.flatMap((name) => {
    const own = importedBackend(configFileOf(name));
    return (own ? [ own ] : BACKENDS).map((backend) => ({ sources: setupFilesOf(name, backend), target: compiledModuleOf(name, backend), backend }));
  });
  // One setup compiles on one core (Components.js is synchronous work): the jobs are shared out
  // between processes, one per core, each taking every n-th job.
  const shard = /^(\d+)\/(\d+)$/u.exec(process.env.FEDPOD_COMPILE_SHARD ?? '');
  if (!shard) {
    const processes = Math.min(jobs.length, os.availableParallelism());
    if (processes > 1) {
      const codes = await Promise.all(Array.from({ length: processes }, (_, index) => new Promise((resolve) => {
        spawn(process.execPath, [ __filename, ...process.argv.slice(2) ], {
          stdio: 'inherit', env: { ...process.env, FEDPOD_COMPILE_SHARD: `${index}/${processes}` },
        }).on('close', resolve);
      })));
      process.exitCode = codes.find((code) => code !== 0) ?? 0;
      return;
    }
  }
  const [ index, count ] = shard ? [ Number(shard[1]), Number(shard[2]) ] : [ 0, 1 ];
  for (const { sources, target, backend } of jobs.filter((_, position) => position % count === index)) {
    const started = Date.now();
    const shown = `${path.relative(ROOT, sources[0])} (${backend})`;
    const key = inputsKey(sources);
    if (upToDate(target, key)) {
      const now = new Date();
      fs.utimesSync(target, now, now);
      process.stdout.write(`kept ${shown} (compiled from the same inputs)\n`);
      continue;
    }
    const code = await compile(sources);
    if (/require\('\.\.?\/(?!index\.js')/u.test(code)) {
      throw new Error(`${shown}: the compiled module requires a relative path other than ../index.js`);
    }
    fs.writeFileSync(target, `// Compiled from ${shown} by scripts/compile-configs.js (inputs ${key}); do not edit.\n${code}\n`);
    process.stdout.write(`compiled ${shown} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
})().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
