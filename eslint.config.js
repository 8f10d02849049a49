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
  {
    files: [ 'test/**/*.ts' ],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
