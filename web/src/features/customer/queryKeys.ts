/** The customer page's query keys (its public file). */
export const customerKeys = {
  /** CustomerLine: GET /customer/line, per customer session. */
  line: (token: string | null) => ['customer', 'line', token] as const,
  /** CustomerCharge: GET /customer/payments/{id}. */
  payment: (id: number | undefined) => ['customer', 'payment', id] as const,
};
