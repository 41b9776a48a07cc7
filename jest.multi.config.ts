/**
 * The two-instance leg: two real servers (`server/main.ts`, PORT=0) on one real PostgreSQL, driven over
 * HTTP on loopback. Run with `npm run test:multi` (it starts a throwaway PostgreSQL: .ci/postgres.sh).
 */
import { createConfig } from '@umijs/max/test';
import { cleanupConfig } from './tests/cleanup/config';

const { testTimeout: _ignored, ...nodeBase } = createConfig({ target: 'node' });

export default {
  ...nodeBase,
  displayName: 'multi',
  rootDir: __dirname,
  moduleNameMapper: {
    ...nodeBase.moduleNameMapper,
    '^@contract$': '<rootDir>/src/contract/index.ts',
    '^@contract/(.*)$': '<rootDir>/src/contract/$1',
  },
  testMatch: ['<rootDir>/tests/multi/**/*.test.ts'],
  ...cleanupConfig,
  maxWorkers: 1,
  testTimeout: 120_000,
};
