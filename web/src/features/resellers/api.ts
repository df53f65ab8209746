import { keepPreviousData, type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { resellerKeys } from './queryKeys';
import { dashboardKeys } from '../dashboard/queryKeys';
import type { Reseller, ResellerCreate, ResellerDetail, ResellerPage, ResellersQuery, ResellerUpdate } from '../../api/types';
import './texts';
import type { PerOption } from '../../components/pagerMath';
import { reloadProfile } from '../../api/profile';
import { useIntentMutation } from '../../api/useIntentMutation';
import { isValidId } from '../../lib/ids';

export function useResellers(query: ResellersQuery) {
  return useQuery({
    queryKey: resellerKeys.list(query),
    queryFn: ({ signal }) => api.GET('/api/resellers', { params: { query }, signal }),
    placeholderData: keepPreviousData,
  });
}

export const resellerQuery = (id: number) =>
  queryOptions({
    queryKey: resellerKeys.one(id),
    queryFn: ({ signal }) => api.GET('/api/resellers/{id}', { params: { path: { id } }, signal }),
    enabled: isValidId(id),
  });

export function useReseller(id: number) {
  return useQuery(resellerQuery(id));
}

export function useLedger(id: number, page: number, per: PerOption) {
  return useQuery({
    queryKey: resellerKeys.ledgerPage(id, page, per),
    queryFn: ({ signal }) => api.GET('/api/resellers/{id}/ledger', { params: { path: { id }, query: { page, per } }, signal }),
    enabled: isValidId(id),
    placeholderData: keepPreviousData,
  });
}

/** Domains of a reseller; errors are shown by the page ('Erro ao buscar domínios do revendedor.'). */
export function useDomains(id: number) {
  return useQuery({
    queryKey: resellerKeys.domains(id),
    queryFn: ({ signal }) => api.GET('/api/resellers/{id}/domains', { params: { path: { id } }, signal, silent: true }).then((r) => r.data ?? []),
    enabled: isValidId(id),
    retry: false,
  });
}

/** Setting master_min_credit_create (default 1). */
export function masterMinCredits(settings: Record<string, string> | undefined): number {
  const raw = settings?.master_min_credit_create?.trim();
  const n = raw ? Number(raw) : Number.NaN;
  return Number.isFinite(n) ? n : 1;
}

const ROW_FIELDS: readonly (keyof Reseller)[] = [
  'id',
  'username',
  'credits',
  'master_username',
  'owner_id',
  'last_login',
  'group_name',
  'group_type',
  'member_group_id',
  'sub_resellers_count',
  'clients_count',
  'status',
];

/** Replaces the list rows (every cached page) and the detail record with the record the server returned. */
export function replaceReseller(qc: QueryClient, record: ResellerDetail): void {
  const patch: Partial<Reseller> = {};
  for (const k of ROW_FIELDS) if (k in record) (patch as Record<string, unknown>)[k] = record[k];
  qc.setQueriesData<ResellerPage>({ queryKey: resellerKeys.lists() }, (old) =>
    old ? { ...old, data: old.data.map((r) => (r.id === record.id ? { ...r, ...patch } : r)) } : old,
  );
  qc.setQueryData(resellerKeys.one(record.id), record);
}

/** Block or unblock (both need a confirm dialog in the UI). */
export function useSetResellerStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, block }: { id: number; block: boolean }) => api.POST(block ? '/api/resellers/{id}/block' : '/api/resellers/{id}/unblock', { params: { path: { id } } }),
    onSuccess: (row) => replaceReseller(qc, row),
  });
}

/** Promotion to master; silent: the list shows its failure in a dialog (INSUFFICIENT_CREDITS explained). */
export function useToMaster() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.POST('/api/resellers/{id}/to_master', { params: { path: { id } }, silent: true }),
    onSuccess: (row) => replaceReseller(qc, row),
  });
}

/**
 * Signed credit change, keyed per intent (reseller and value: a retry of the same value after a lost
 * answer reuses its key); refreshes the row, the ledger and the top bar balance.
 */
export function useChangeCredits() {
  const qc = useQueryClient();
  return useIntentMutation({
    mutationFn: ({ id, value }: { id: number; value: number }, idempotencyKey) =>
      api.POST('/api/resellers/{id}/credits', { params: { path: { id } }, body: { value }, idempotencyKey }),
    onSuccess: (row) => {
      replaceReseller(qc, row);
      void qc.invalidateQueries({ queryKey: resellerKeys.ledger(row.id) });
      void reloadProfile();
    },
  });
}

/** Admin only: removes a reseller, moving everything to target_id (the modal also marks a bad target). */
export function useDeactivate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, targetId }: { id: number; targetId: number }) =>
      api.DELETE('/api/resellers/{id}', { params: { path: { id } }, body: { reseller_id: id, type: 'transferall', target_id: targetId }, errorScopes: ['resellers'] }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: resellerKeys.all() });
      // its lines and sub-resellers moved: the dashboard's cards count them
      void qc.invalidateQueries({ queryKey: dashboardKeys.all() });
      void reloadProfile();
    },
  });
}

/**
 * The client toasts a failure and the form marks the field it names; the initial credits come out of the creator's balance,
 * keyed per intent (the values sent).
 */
export function useCreateReseller() {
  const qc = useQueryClient();
  return useIntentMutation({
    mutationFn: (body: ResellerCreate, idempotencyKey) => api.POST('/api/resellers', { body, idempotencyKey, errorScopes: ['resellers'] }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: resellerKeys.all() });
      void qc.invalidateQueries({ queryKey: dashboardKeys.counters() }); // the resellers card
      void reloadProfile();
    },
  });
}

export function useUpdateReseller(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ResellerUpdate) => api.PUT('/api/resellers/{id}', { params: { path: { id } }, body, errorScopes: ['resellers'] }),
    onSuccess: (row) => {
      replaceReseller(qc, row);
      void qc.invalidateQueries({ queryKey: resellerKeys.lists() });
    },
  });
}

/** PUT add_domain (the client toasts a failure; the page marks an invalid domain on its field). */
export function useAddDomain(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (dns_reseller: string) => api.PUT('/api/resellers/{id}/add_domain', { params: { path: { id } }, body: { dns_reseller }, errorScopes: ['resellers'] }),
    onSuccess: () => qc.invalidateQueries({ queryKey: resellerKeys.domains(id) }),
  });
}
