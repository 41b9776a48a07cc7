/**
 * The e2e leg: real Chromium (Debian's, through playwright-core) against `npm start` on a temporary
 * DATA_DIR and a free port. Run with `npm run test:e2e` (needs /usr/bin/chromium: .ci/chromium.sh).
 */
import { createConfig } from '@umijs/max/test';
import { cleanupConfig } from './tests/cleanup/config';

const { testTimeout: _ignored, ...nodeBase } = createConfig({ target: 'node' });

export default {
  ...nodeBase,
  displayName: 'e2e',
  rootDir: __dirname,
  moduleNameMapper: {
    ...nodeBase.moduleNameMapper,
    '^@contract$': '<rootDir>/src/contract/index.ts',
    '^@contract/(.*)$': '<rootDir>/src/contract/$1',
  },
  testMatch: ['<rootDir>/tests/e2e/**/*.test.ts'],
  ...cleanupConfig,
  globalSetup: '<rootDir>/tests/e2e/global-setup.ts',
  globalTeardown: '<rootDir>/tests/e2e/global-teardown.ts',
  // Two files at a time, each with its own Chromium, against the one portal: the tests share no state
  // one of them relies on (each makes its own accounts; identity and ums run portals of their own), and
  // the route walk, most of the leg, is split by width into two files that run side by side.
  maxWorkers: 2,
  // Two minutes: with two files at a time each test runs slower, and the longest flows (ocs: a report,
  // its review and the refund) once took over a minute on a loaded machine. A hung test still fails.
  testTimeout: 120_000,
};
