/** The jest settings every leg that starts servers shares (server, multi-instance, e2e). */
export const cleanupConfig = {
  // Stops what a test started (child processes, fakes, apps) even when the test fails or times out.
  testEnvironment: '<rootDir>/tests/cleanup/environment.ts',
};
