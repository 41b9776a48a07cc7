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
  // One file at a time. Two at a time (the files share no state one relies on) saved only 70 s of the
  // leg's 677 s in a full CI run: Chromium keeps both cores busy, so the route walk's two halves took
  // 388 s and 322 s side by side against 409 s for the whole walk alone, and the timing races of a
  // loaded machine became likelier.
  maxWorkers: 1,
  // Two minutes: the longest flows (ocs: a report, its review and the refund) once took over a minute
  // on a loaded machine. A hung test still fails.
  testTimeout: 120_000,
};
