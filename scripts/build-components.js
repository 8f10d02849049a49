#!/usr/bin/env node
'use strict';
// Generates the Components.js descriptions of Fedpod's classes (dist/components/) with
// componentsjs-generator, unless nothing it reads has changed since the last run. What a component
// description holds (classes, constructor parameters, their types and doc comments) is all in the
// declaration files tsc writes (dist/**/*.d.ts), so when those are the same byte for byte, the
// descriptions are too: a change inside a method body then skips the generator (10-30 s).
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const OUT = path.join(ROOT, 'dist', 'components');
const KEY_FILE = path.join(OUT, '.inputs-sha256');

function declarationFiles(directory) {
  const files = [];
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (file !== OUT && entry.name !== 'compiled') {
        files.push(...declarationFiles(file));
      }
    } else if (entry.name.endsWith('.d.ts')) {
      files.push(file);
    }
  }
  return files.sort();
}

function inputsKey() {
  const hash = createHash('sha256');
  for (const file of [ ...declarationFiles(path.join(ROOT, 'dist')), path.join(ROOT, '.componentsignore'),
    path.join(ROOT, 'package.json'), path.join(ROOT, 'package-lock.json'), __filename ]) {
    hash.update(path.relative(ROOT, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const key = inputsKey();
const unchanged = fs.existsSync(path.join(OUT, 'components.jsonld')) && fs.existsSync(KEY_FILE) &&
  fs.readFileSync(KEY_FILE, 'utf8').trim() === key;
if (unchanged && !process.argv.includes('--force')) {
  process.stdout.write('components: declarations unchanged, dist/components/ kept\n');
  process.exit(0);
}
const generator = path.join(ROOT, 'node_modules', '.bin', 'componentsjs-generator');
const run = spawnSync(generator, [ '-s', 'src', '-c', 'dist/components', '-i', '.componentsignore', '-r', 'fedpod' ],
  { cwd: ROOT, stdio: 'inherit' });
if (run.status !== 0) {
  process.exit(run.status ?? 1);
}
fs.writeFileSync(KEY_FILE, `${key}\n`);
