#!/usr/bin/env node
'use strict';
// Compiles each named setup's Components.js config (config/<name>.json) to a JavaScript module,
// dist/compiled/<name>.js, that builds the server's App from the run's variables without reading
// any JSON-LD: `fedpod start` then skips Components.js's config loading, most of its start-up time.
// Config files given as arguments are compiled too, to dist/compiled/path-<hash of the absolute
// path>.js (`npm run build:configs -- my-setup.json`), for `fedpod start --config my-setup.json`.
// Run by `npm run build`; a config edited since is noticed at start (it is then read instead).
const fs = require('node:fs');
const path = require('node:path');
const { ComponentsManager } = require('componentsjs');
const { ConstructionStrategyCommonJsString } = require('componentsjs/lib/construction/strategy/ConstructionStrategyCommonJsString');

// The same names and places `fedpod start` looks for (built by build:ts, which runs first).
const { NAMED_SETUPS, compiledModuleOf, configFileOf } = require('../dist/cli/Setups');

const ROOT = path.join(__dirname, '..');

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
  fs.mkdirSync(path.join(ROOT, 'dist', 'compiled'), { recursive: true });
  const jobs = [ ...NAMED_SETUPS, ...process.argv.slice(2) ].map((name) => ({ source: configFileOf(name), target: compiledModuleOf(name) }));
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
