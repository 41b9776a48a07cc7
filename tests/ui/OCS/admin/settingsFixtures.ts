/** The OCS service settings as the settings page loads them. */
export const OCS_SETTINGS = {
  bankPrice: 1,
  freeDaily: 10,
  fuzzyThreshold: 0.5,
  ratePerSecond: 10,
  rateBurst: 20,
  latencyBudgetSeconds: 15,
  disputedMode: 'lower' as const,
  disputeThreshold: 3,
  reportDailyLimit: 20,
};
