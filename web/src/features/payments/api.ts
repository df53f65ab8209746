import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Body, Query } from '../../api/types';
import { paymentKeys } from './queryKeys';

export function usePaymentSettings() {
  return useQuery({ queryKey: paymentKeys.settings(), queryFn: ({ signal }) => api.GET('/api/payments/settings', { signal }) });
}

export function useSavePaymentSettings() {
  const qc = useQueryClient();
  return useMutation({
    // silent: the form shows the failure (showFormError: under its input, or toasted)
    mutationFn: (body: Body<'/api/payments/settings', 'put'>) => api.PUT('/api/payments/settings', { body, silent: true }),
    onSuccess: (data) => {
      qc.setQueryData(paymentKeys.settings(), data);
      void qc.invalidateQueries({ queryKey: paymentKeys.summary() });
    },
  });
}

export function usePayments(query: Query<'/api/payments'>) {
  // payments arrive from outside (customers, Mercado Pago): always asked again when shown, and every 15 s
  return useQuery({ queryKey: paymentKeys.list(query), queryFn: ({ signal }) => api.GET('/api/payments', { params: { query }, signal }), placeholderData: keepPreviousData, staleTime: 0, refetchInterval: 15_000 });
}
