/** The credit sales feature's query keys. */
export const creditSaleKeys = {
  /** CreditSaleSettings: GET /credit-sales/settings. */
  settings: () => ['creditSales', 'settings'] as const,
  /** GET /credit-sales/summary (the dashboard card). */
  summary: () => ['creditSales', 'summary'] as const,
  /** CreditOffer: GET /credit-purchases/offer. */
  offer: () => ['creditSales', 'offer'] as const,
  /** Every page of the list (invalidated when a purchase is applied). */
  lists: () => ['creditSales', 'list'] as const,
  /** Paged ListedCreditPurchase: GET /credit-purchases. */
  list: (query: object) => ['creditSales', 'list', query] as const,
  /** CreditPurchase: GET /credit-purchases/{id}. */
  purchase: (id: number | undefined) => ['creditSales', 'purchase', id] as const,
};
