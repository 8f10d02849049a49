#!/usr/bin/env node
'use strict';
// Compiles each named setup's Components.js config (config/<name>.json) to a JavaScript module,
// dist/compiled/<name>.js, that builds the server's App from the run's variables without reading
// any JSON-LD: `fedpod start` then skips Components.js's config loading, most of its start-up time.
// Run by `npm run build`; a config edited since is noticed at start (bin/fedpod.js reads it instead).
const fs = require('node:fs');
const path = require('node:path');
const { ComponentsManager } = require('componentsjs');
const { ConstructionStrategyCommonJsString } = require('componentsjs/lib/construction/strategy/ConstructionStrategyCommonJsString');

const ROOT = path.join(__dirname, '..');
const SETUPS = [ 'activitypub', 'ldp', 'ldp-sparql', 'ldp-wac' ];
const OUT = path.join(ROOT, 'dist', 'compiled');

async function compile(name) {
  const strategy = new ConstructionStrategyCommonJsString({ asFunction: true, req: require });
  const manager = await ComponentsManager.build({
    mainModulePath: ROOT,
    constructionStrategy: strategy,
    // As CSS's AppRunner loads configs: CSS's own configs do not pass Components.js's type checks.
    typeChecking: false,
    skipContextValidation: true,
    logLevel: 'error',
    configLoader: async(registry) => registry.register(path.join(ROOT, 'config', `${name}.json`)),
  });
  const variable = await manager.instantiate('urn:solid-server:default:App');
  // The module sits in dist/compiled/: Fedpod's own classes are one directory up.
  return strategy.serializeDocument(variable).replaceAll('require(\'./dist/index.js\')', 'require(\'../index.js\')');
}

(async() => {
  fs.mkdirSync(OUT, { recursive: true });
  for (const name of SETUPS) {
    const started = Date.now();
    const code = await compile(name);
    if (/require\('\.\.?\/(?!index\.js')/u.test(code)) {
      throw new Error(`${name}: the compiled module requires a relative path other than ../index.js`);
    }
    fs.writeFileSync(path.join(OUT, `${name}.js`), `// Compiled from config/${name}.json by scripts/compile-configs.js; do not edit.\n${code}\n`);
    process.stdout.write(`compiled config/${name}.json in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
})().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
