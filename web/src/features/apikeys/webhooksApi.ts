import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { apiKeyKeys } from './queryKeys';

/** The account's webhook endpoints (at most 10: not paged). */
export function useWebhooks() {
  return useQuery({
    queryKey: apiKeyKeys.webhooks(),
    queryFn: ({ signal }) => api.GET('/api/webhooks', { signal }).then((r) => r.data),
  });
}

export type WebhookEvent = 'line.created' | 'line.renewed' | 'line.blocked' | 'line.expiring' | 'line.expired' | 'credits.low' | 'payment.approved' | 'payment.failed' | 'credits.purchase_waiting' | 'credits.purchased';
export type NewWebhook = { url: string; events: WebhookEvent[]; include_credentials?: boolean; credits_low_threshold?: number | null };

/** POST /webhooks: answers the signing secret, this once (silent: the form shows the error). */
export function useCreateWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NewWebhook) => api.POST('/api/webhooks', { body, silent: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKeyKeys.webhooks() }),
  });
}

export function useRemoveWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.DELETE('/api/webhooks/{id}', { params: { path: { id } } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKeyKeys.webhooks() }),
  });
}

/** The endpoint's last 50 deliveries, refreshed every few seconds while shown. */
export function useDeliveries(id: number | null) {
  return useQuery({
    queryKey: apiKeyKeys.deliveries(id ?? 0),
    queryFn: ({ signal }) => api.GET('/api/webhooks/{id}/deliveries', { params: { path: { id: id ?? 0 } }, signal }).then((r) => r.data),
    enabled: id !== null,
    refetchInterval: 3000,
  });
}

export function useSendTest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.POST('/api/webhooks/{id}/test', { params: { path: { id } } }),
    onSuccess: (_d, id) => qc.invalidateQueries({ queryKey: apiKeyKeys.deliveries(id) }),
  });
}

export function useResend(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) => api.POST('/api/webhooks/{id}/deliveries/{delivery_id}/resend', { params: { path: { id, delivery_id: deliveryId } } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKeyKeys.deliveries(id) }),
  });
}
