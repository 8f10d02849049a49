#!/usr/bin/env node
'use strict';
// Compiles each named setup's Components.js config (config/<name>.json) to a JavaScript module,
// dist/compiled/<name>.js, that builds the server's App from the run's variables without reading
// any JSON-LD: `fedpod start` then skips Components.js's config loading, most of its start-up time.
// Config files given as arguments are compiled too, to dist/compiled/path-<hash of the absolute
// path>.js (`npm run build:configs -- my-setup.json`), for `fedpod start --config my-setup.json`.
// Run by `npm run build`; a config edited since is noticed at start (it is then read instead).
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { ComponentsManager } = require('componentsjs');
const { ConstructionStrategyCommonJsString } = require('componentsjs/lib/construction/strategy/ConstructionStrategyCommonJsString');

const ROOT = path.join(__dirname, '..');
const SETUPS = [ 'activitypub', 'ldp', 'ldp-sparql', 'ldp-wac' ];
const OUT = path.join(ROOT, 'dist', 'compiled');

/** Where the compiled module of a config given by path goes (src/cli/Setups.ts finds it the same way). */
function compiledPathOf(configFile) {
  return path.join(OUT, `path-${crypto.createHash('sha256').update(path.resolve(configFile)).digest('hex').slice(0, 16)}.js`);
}

async function compile(configFile) {
  const strategy = new ConstructionStrategyCommonJsString({ asFunction: true, req: require });
  const manager = await ComponentsManager.build({
    mainModulePath: ROOT,
    constructionStrategy: strategy,
    // As CSS's AppRunner loads configs: CSS's own configs do not pass Components.js's type checks.
    typeChecking: false,
    skipContextValidation: true,
    logLevel: 'error',
    configLoader: async(registry) => registry.register(configFile),
  });
  const variable = await manager.instantiate('urn:solid-server:default:App');
  // The module sits in dist/compiled/: Fedpod's own classes are one directory up.
  return strategy.serializeDocument(variable).replaceAll('require(\'./dist/index.js\')', 'require(\'../index.js\')');
}

(async() => {
  fs.mkdirSync(OUT, { recursive: true });
  const jobs = [
    ...SETUPS.map((name) => ({ source: path.join(ROOT, 'config', `${name}.json`), target: path.join(OUT, `${name}.js`) })),
    ...process.argv.slice(2).map((file) => ({ source: path.resolve(file), target: compiledPathOf(file) })),
  ];
  for (const { source, target } of jobs) {
    const started = Date.now();
    const code = await compile(source);
    if (/require\('\.\.?\/(?!index\.js')/u.test(code)) {
      throw new Error(`${source}: the compiled module requires a relative path other than ../index.js`);
    }
    const shown = path.relative(ROOT, source);
    fs.writeFileSync(target, `// Compiled from ${shown} by scripts/compile-configs.js; do not edit.\n${code}\n`);
    process.stdout.write(`compiled ${shown} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
})().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
