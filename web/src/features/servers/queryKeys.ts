/** The servers feature's query keys. */
export const serverKeys = {
  /** EdgeServer[]: GET /admin/servers (the `data` array). */
  list: () => ['servers'] as const,
};
