import type { Query, SalesQuery } from '../../api/types';

/** The reports feature's query keys (its public file: a feature whose writes change the figures may invalidate `all`). */
export const reportKeys = {
  all: () => ['reports'] as const,
  /** SalesReport: GET /reports/sales. */
  sales: (query: SalesQuery) => ['reports', 'sales', query] as const,
  /** TopReseller[]: GET /reports/top-resellers. */
  topResellers: (query: Query<'/api/reports/top-resellers'>) => ['reports', 'topResellers', query] as const,
};
