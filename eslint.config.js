'use strict';
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

module.exports = tseslint.config(
  { ignores: [ 'dist/**', 'node_modules/**', 'coverage/**', '.test-tmp/**', 'bench/results/**' ] },
  js.configs.recommended,
  {
    files: [ '**/*.ts' ],
    extends: [ ...tseslint.configs.recommended ],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [ 'error', { argsIgnorePattern: '^_' } ],
    },
  },
  {
    files: [ '**/*.js' ],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly',
        console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly',
        setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', fetch: 'readonly',
        URLSearchParams: 'readonly', performance: 'readonly', AbortController: 'readonly', exports: 'writable',
        setImmediate: 'readonly', __filename: 'readonly', AbortSignal: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly' },
    },
  },
  // Layers go down only: util < storage < plugins < handlers < cli. A relative import that climbs
  // into a higher layer fails the lint (and so the build's checks).
  ...[
    [ 'src/util/**/*.ts', [ 'storage', 'plugins', 'handlers', 'cli' ] ],
    [ 'src/storage/**/*.ts', [ 'plugins', 'handlers', 'cli' ] ],
    [ 'src/plugins/**/*.ts', [ 'handlers', 'cli' ] ],
    [ 'src/handlers/**/*.ts', [ 'cli' ] ],
  ].map(([ files, higher ]) => ({
    files: [ files ],
    rules: {
      'no-restricted-imports': [ 'error', { patterns: [ {
        regex: `^(\\.\\./)+(${higher.join('|')})/`,
        message: `Layers go down only (util < storage < plugins < handlers < cli): this folder may not import from ${higher.join(', ')}.`,
      } ] } ],
    },
  })),
  {
    files: [ 'test/**/*.ts' ],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
