/** The API keys feature's query keys. */
export const apiKeyKeys = {
  /** ApiKey[]: GET /api-keys (the `data` array). */
  list: () => ['api-keys'] as const,
};
