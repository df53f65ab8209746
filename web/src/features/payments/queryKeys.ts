/** The PIX payments feature's query keys. */
export const paymentKeys = {
  /** PaymentSettings: GET /payments/settings. */
  settings: () => ['payments', 'settings'] as const,
  /** Paged Payment: GET /payments. */
  list: (query: object) => ['payments', 'list', query] as const,
  /** GET /payments/summary (the dashboard card). */
  summary: () => ['payments', 'summary'] as const,
};
