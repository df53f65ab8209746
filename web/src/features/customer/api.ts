import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useIntentMutation } from '../../api/useIntentMutation';
import { customerKeys } from './queryKeys';

// The customer page's calls: a customer session (cs_...), kept in this tab only, never the panel's.

const KEY = 'customer-session';
export const customerToken = () => sessionStorage.getItem(KEY);
export const forgetCustomer = () => sessionStorage.removeItem(KEY);

export function useCustomerSignIn() {
  return useMutation({
    mutationFn: (body: { username: string; password: string } | { link: string }) => api.POST('/api/customer/sign-in', { body, anonymous: true, silent: true }),
    onSuccess: (r) => sessionStorage.setItem(KEY, r.token),
  });
}

export function useCustomerLine(token: string | null) {
  return useQuery({
    queryKey: customerKeys.line(token),
    enabled: token !== null,
    queryFn: ({ signal }) => api.GET('/api/customer/line', { bearer: token!, signal, silent: true }),
  });
}

/** A PIX charge for a package: keyed per intent (the package), so a retry after a lost answer gets the same charge. */
export function useCreateCharge(token: string | null) {
  return useIntentMutation({
    mutationFn: ({ packageId }: { packageId: number }, key) => api.POST('/api/customer/payments', { body: { package_id: packageId }, params: { header: { 'idempotency-key': key } }, bearer: token! }),
  });
}

/** The charge, asked every 3 s until it is settled. */
export function useCharge(token: string | null, id: number | undefined) {
  return useQuery({
    queryKey: customerKeys.payment(id),
    enabled: token !== null && id !== undefined,
    queryFn: ({ signal }) => api.GET('/api/customer/payments/{id}', { params: { path: { id: id! } }, bearer: token!, signal, silent: true }),
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'pending' ? false : 3000),
  });
}
