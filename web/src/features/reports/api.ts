import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Query, SalesQuery } from '../../api/types';
import { reportKeys } from './queryKeys';

/**
 * The figures move with every sale anywhere in the network (another device, a customer's PIX):
 * asked again whenever the page shows them, the cached answer on screen meanwhile (the server
 * reads kept counts: a cheap call).
 */
const FRESH = 0;

export function salesReportQuery(query: SalesQuery) {
  return queryOptions({
    queryKey: reportKeys.sales(query),
    queryFn: ({ signal }) => api.GET('/api/reports/sales', { params: { query }, signal }),
    staleTime: FRESH,
  });
}

/** The figures of a period; the previous period's stay on screen while the next one loads. */
export function useSalesReport(query: SalesQuery) {
  return useQuery({ ...salesReportQuery(query), placeholderData: keepPreviousData });
}

export function topResellersQuery(query: Query<'/api/reports/top-resellers'>) {
  return queryOptions({
    queryKey: reportKeys.topResellers(query),
    queryFn: ({ signal }) => api.GET('/api/reports/top-resellers', { params: { query }, signal }),
    staleTime: FRESH,
  });
}

/** The caller's direct sub-resellers, best first (only admins and masters ask: a plain reseller has none). */
export function useTopResellers(query: Query<'/api/reports/top-resellers'>) {
  return useQuery({ ...topResellersQuery(query), placeholderData: keepPreviousData });
}
