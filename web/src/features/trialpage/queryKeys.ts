/** The trial page feature's query keys. */
export const trialPageKeys = {
  /** TrialPageSettings: GET /trial-page/settings. */
  settings: () => ['trialPage', 'settings'] as const,
};
