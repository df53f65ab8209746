import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { reloadProfile } from '../../api/profile';
import type { Body, Query } from '../../api/types';
import { useIntentMutation } from '../../api/useIntentMutation';
import { creditSaleKeys } from './queryKeys';

export function useCreditSaleSettings(enabled: boolean) {
  return useQuery({ queryKey: creditSaleKeys.settings(), enabled, queryFn: ({ signal }) => api.GET('/api/credit-sales/settings', { signal }) });
}

export function useSaveCreditSaleSettings() {
  const qc = useQueryClient();
  return useMutation({
    // silent: the form shows the failure (showFormError: under its input, or toasted)
    mutationFn: (body: Body<'/api/credit-sales/settings', 'put'>) => api.PUT('/api/credit-sales/settings', { body, silent: true }),
    onSuccess: (data) => qc.setQueryData(creditSaleKeys.settings(), data),
  });
}

/** What the caller's parent asks per credit (`enabled: false` while it sells none). */
export function useCreditOffer(enabled: boolean) {
  return useQuery({ queryKey: creditSaleKeys.offer(), enabled, staleTime: 0, queryFn: ({ signal }) => api.GET('/api/credit-purchases/offer', { signal, silent: true }) });
}

/** A PIX charge at the parent for `credits`: pressing again after a failure sends the same key (the same purchase, retried). */
export function useBuyCredits() {
  return useIntentMutation({
    mutationFn: ({ credits }: { credits: number }, key) => api.POST('/api/credit-purchases', { body: { credits }, params: { header: { 'idempotency-key': key } }, silent: true }),
  });
}

/** The purchase, asked every 3 s while it waits for the payment or for the parent's credits; the balance is reloaded once applied. */
export function usePurchase(id: number | undefined) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: creditSaleKeys.purchase(id),
    enabled: id !== undefined,
    queryFn: async ({ signal }) => {
      const p = await api.GET('/api/credit-purchases/{id}', { params: { path: { id: id! } }, signal, silent: true });
      if (p.status === 'applied') {
        await reloadProfile();
        void qc.invalidateQueries({ queryKey: creditSaleKeys.lists() });
      }
      return p;
    },
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'pending' && q.state.data.status !== 'paid_awaiting_credits' ? false : 3000),
  });
}

export function usePurchases(query: Query<'/api/credit-purchases'>) {
  return useQuery({ queryKey: creditSaleKeys.list(query), queryFn: ({ signal }) => api.GET('/api/credit-purchases', { params: { query }, signal }), placeholderData: keepPreviousData, staleTime: 0, refetchInterval: 15_000 });
}
