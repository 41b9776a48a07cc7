/**
 * Jest projects: `ui` (jsdom, Umi aliases) and `server` (node). configUmiAlias runs
 * `max setup` itself, so src/.umi is generated before the tests resolve @umijs/max.
 * Run one side with `npx jest --selectProjects ui` or `--selectProjects server`.
 */
import { configUmiAlias, createConfig } from '@umijs/max/test';
import { cleanupConfig } from './tests/cleanup/config';

export default async () => {
  // testTimeout is a global option in jest 29 (a project-level one only warns), so it
  // is dropped from the project configs and set once below.
  const { testTimeout: _ignored, ...browserBase } = createConfig({
    target: 'browser',
    jsTransformerOpts: { jsx: 'automatic', supported: { 'dynamic-import': false } },
  });
  const { testTimeout: _ignored2, ...nodeBase } = createConfig({ target: 'node' });
  // The server imports the contract as @contract (tsconfig paths; tsx reads them, jest needs them here).
  const contractAlias = {
    '^@contract$': '<rootDir>/src/contract/index.ts',
    '^@contract/(.*)$': '<rootDir>/src/contract/$1',
  };
  const ui = await configUmiAlias({
    ...browserBase,
    displayName: 'ui',
    rootDir: __dirname,
    testMatch: ['<rootDir>/tests/ui/**/*.test.ts?(x)', '<rootDir>/tests/mock/**/*.test.ts'],
    setupFilesAfterEnv: ['<rootDir>/tests/ui/setup.ts'],
  });
  ui.moduleNameMapper = { ...ui.moduleNameMapper, ...contractAlias };

  // Server test files that never open a database: the PostgreSQL leg (TEST_DATABASE_URL) would only
  // run them a second time (~45 s of CI). A file that starts using the database leaves this list.
  const databaseFree = [
    'ocs/ai-client',
    'ocs/ai-parse',
    'ocs/ai-prompt',
    'ocs/confidence',
    'ocs/fuzzy-index',
    'ocs/guard',
    'ocs/script-config',
    'ocs/script-userscript',
    'ocs/synthetic',
    'scheduler',
    'text',
    'zip-guard',
    'csv',
    'outbound',
    'prerender-login',
    'sql-helpers',
  ].map((f) => `<rootDir>/tests/server/${f}\\.test\\.ts$`);

  return {
    projects: [
      ui,
      // --- server project: owned by the lead engineer (server/, tests/server/) ---
      {
        ...nodeBase,
        displayName: 'server',
        rootDir: __dirname,
        moduleNameMapper: { ...nodeBase.moduleNameMapper, ...contractAlias },
        testMatch: ['<rootDir>/tests/server/**/*.test.ts'],
        testPathIgnorePatterns: [
          ...(nodeBase.testPathIgnorePatterns ?? ['/node_modules/']),
          ...(process.env.TEST_DATABASE_URL ? databaseFree : []),
        ],
        ...cleanupConfig,
        globalSetup: '<rootDir>/tests/server/global-setup.ts',
        globalTeardown: '<rootDir>/tests/server/global-teardown.ts',
      },
    ],
    testTimeout: 30000,
    // A worker is restarted after a test file once its heap passes this. Jest keeps each file's module
    // registry alive in its worker, so a worker that ran the UI files reaches 1.5 GB, and the next CPU-heavy
    // file in it ran ~9x slower under the garbage collector (ocs/fuzzy-index: 112 s instead of 12 s).
    // Measured on a cold cache, the whole suite: 461 s without, 391 s with.
    workerIdleMemoryLimit: '900MB',
  };
};
