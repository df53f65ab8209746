/**
 * This process's event counters for /metrics (modules/ops): plain numbers, so counting costs
 * nothing when metrics are off. Prometheus adds the hosts' and workers' counters up itself; each
 * starts at 0 with its process, which `rate()` expects of a counter.
 */
export type GatewayResult = 'allowed' | 'refused' | 'unknown_edge';

const gateway: Record<GatewayResult, number> = { allowed: 0, refused: 0, unknown_edge: 0 };
let creditSpends = 0;

/** One spend of credits committed (the ledger calls it after the commit). */
export function countCreditSpend(): void {
  creditSpends++;
}

/** One answer of the edges' authorization. */
export function countGatewayAuth(result: GatewayResult): void {
  gateway[result]++;
}

export function counters(): { creditSpends: number; gateway: Readonly<Record<GatewayResult, number>> } {
  return { creditSpends, gateway };
}
