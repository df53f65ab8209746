/** The settings feature's query keys. */
export const settingsKeys = {
  /** AdminSettings: GET /admin/settings. */
  all: () => ['settings'] as const,
};
