// Two jest projects share one config:
//  - unit:        test/unit/**/*.test.ts, no external servers, fast.
//  - integration: every other test/**/*.test.ts. Its globalSetup starts ONE
//                 Virtuoso and ONE redis-server for the whole run (addresses
//                 in FEDPOD_TEST_* env vars, see test/support/env.ts) and its
//                 globalTeardown stops them.
// Jest runs a project's globalSetup only when at least one of its test files
// is selected, so `npm test -- test/unit` never starts Virtuoso or Redis.

/** @type {import('ts-jest').JestConfigWithTsJest['transform']} */
const transform = {
  '^.+\\.ts$': [
    'ts-jest',
    {
      // tsconfig.json is for src/ (rootDir src); tests live outside it. Each file is transpiled on
      // its own (isolatedModules): type-checking every test file in every worker cost more CPU than
      // most tests; tsconfig.test.json checks the tests' types once, in the lint step.
      tsconfig: { rootDir: '.', sourceMap: true, declaration: false, isolatedModules: true },
    },
  ],
};

// Packages published as ES modules only, required by the CommonJS builds of client libraries the
// tests use (masto.js requires change-case): compiled to CommonJS like the tests.
const ESM_ONLY = ['change-case'];
transform[`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`] = [
  'ts-jest',
  { tsconfig: { rootDir: '.', allowJs: true, declaration: false }, isolatedModules: true },
];

const shared = {
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'json'],
};

/** @type {import('jest').Config} */
module.exports = {
  // Integration tests start Fedpod (10-20 s) and sometimes restart servers.
  testTimeout: 120_000,
  // The machine has 2 cores; each integration worker also drives servers.
  maxWorkers: 2,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/unit-setup.ts'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/unit/'],
      // The Mastodon client libraries' CommonJS builds require two ESM-only packages: compiled too,
      // transpiled only (without isolatedModules ts-jest builds a type-checking language service in
      // every worker that loads them).
      transform: {
        ...transform,
        '^.+/node_modules/(change-case|events-to-async)/.+\\.js$': [
          'ts-jest',
          { tsconfig: { rootDir: '.', allowJs: true, declaration: false, module: 'commonjs', isolatedModules: true } },
        ],
      },
      transformIgnorePatterns: ['/node_modules/(?!(change-case|events-to-async)/)'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
