import { keepPreviousData, type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import type { Paged } from '../../api/errors';
import { reloadProfile } from '../auth/profile';

export type GroupType = 'admin' | 'master' | 'reseller';

/** A row of GET /api/resellers. */
export interface ResellerRow {
  id: number;
  username: string;
  credits: number;
  master_username: string | null;
  owner_id: number | null;
  /** Unix seconds, null when never signed in. */
  last_login: number | null;
  group_name: string;
  group_type: GroupType | string;
  member_group_id: number;
  sub_resellers_count: number;
  clients_count: number;
  /** 1 active, otherwise blocked. */
  status: number;
}

/** GET /api/resellers/{id} (and the answer of every reseller action). */
export interface ResellerDetail extends ResellerRow {
  email: string | null;
  whatsapp: string | null;
  telegram: string | null;
  notes: string | null;
}

export interface LedgerRow {
  id: number;
  delta: number;
  balance_after: number;
  reason: string;
  line_id: number | null;
  /** Unix seconds. */
  created_at: number;
  counterparty: string | null;
  actor: string | null;
}

export interface DomainRow {
  id: number | null;
  dns_reseller: string | null;
  token_id: string | null;
  created_at: number | null;
  username: string;
  owner: string | null;
}

export interface ResellerInput {
  username: string;
  password: string;
  member_group_id: number;
  email?: string;
  credits?: number;
  whatsapp?: string;
  telegram?: string;
  notes?: string;
}

export type ResellerUpdate = Partial<Omit<ResellerInput, 'member_group_id' | 'credits'>>;

export interface DeactivateResult {
  id: number;
  target_id: number;
  credits_moved: number;
  sub_resellers_moved: number;
  clients_moved: number;
}

type ListQuery = Record<string, string | number | undefined>;

export function useResellers(query: ListQuery) {
  return useQuery({
    queryKey: queryKeys.resellers.list(query),
    queryFn: ({ signal }) => api<Paged<ResellerRow>>('/resellers', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export const resellerQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.resellers.one(id),
    queryFn: ({ signal }) => api<ResellerDetail>(`/resellers/${id}`, { signal }),
    enabled: isValidId(id),
  });

export function useReseller(id: number) {
  return useQuery(resellerQuery(id));
}

export function useLedger(id: number, page: number, per: number) {
  return useQuery({
    queryKey: queryKeys.resellers.ledgerPage(id, page, per),
    queryFn: ({ signal }) => api<Paged<LedgerRow>>(`/resellers/${id}/ledger`, { query: { page, per }, signal }),
    enabled: isValidId(id),
    placeholderData: keepPreviousData,
  });
}

/** Domains of a reseller; errors are shown by the page ('Erro ao buscar domínios do revendedor.'). */
export function useDomains(id: number) {
  return useQuery({
    queryKey: queryKeys.resellers.domains(id),
    queryFn: ({ signal }) => api<{ data: DomainRow[] }>(`/resellers/${id}/domains`, { signal, silent: true }).then((r) => r.data ?? []),
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

export function isValidId(id: number): boolean {
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647;
}

const ROW_FIELDS: readonly (keyof ResellerRow)[] = [
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
  const patch: Partial<ResellerRow> = {};
  for (const k of ROW_FIELDS) if (k in record) (patch as Record<string, unknown>)[k] = record[k];
  qc.setQueriesData<Paged<ResellerRow>>({ queryKey: queryKeys.resellers.lists() }, (old) =>
    old ? { ...old, data: old.data.map((r) => (r.id === record.id ? { ...r, ...patch } : r)) } : old,
  );
  qc.setQueryData(queryKeys.resellers.one(record.id), record);
}

/** Block or unblock (both need a confirm dialog in the UI). */
export function useSetResellerStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, block }: { id: number; block: boolean }) => api<ResellerDetail>(`/resellers/${id}/${block ? 'block' : 'unblock'}`, { method: 'POST' }),
    onSuccess: (row) => replaceReseller(qc, row),
  });
}

/** Promotion to master; errors are left to the caller (INSUFFICIENT_CREDITS has its own dialog). */
export function useToMaster() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<ResellerDetail>(`/resellers/${id}/to_master`, { method: 'POST', silent: true }),
    onSuccess: (row) => replaceReseller(qc, row),
  });
}

/** Signed credit change with an Idempotency-Key; refreshes the row, the ledger and the top bar balance. */
export function useChangeCredits() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, value, key }: { id: number; value: number; key: string }) =>
      api<ResellerDetail>(`/resellers/${id}/credits`, { method: 'POST', body: { value }, idempotencyKey: key }),
    onSuccess: (row) => {
      replaceReseller(qc, row);
      void qc.invalidateQueries({ queryKey: queryKeys.resellers.ledger(row.id) });
      void reloadProfile();
    },
  });
}

/** Admin only: removes a reseller, moving everything to target_id (errors are shown by the modal). */
export function useDeactivate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, targetId }: { id: number; targetId: number }) =>
      api<DeactivateResult>(`/resellers/${id}`, { method: 'DELETE', body: { reseller_id: id, type: 'transferall', target_id: targetId }, silent: true }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.resellers.all() });
      void reloadProfile();
    },
  });
}

/** Field errors are shown on the form (silent); the initial credits come out of the creator's balance. */
export function useCreateReseller() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: ResellerInput; key: string }) =>
      api<ResellerDetail>('/resellers', { method: 'POST', body, idempotencyKey: key, silent: true }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.resellers.all() });
      void reloadProfile();
    },
  });
}

export function useUpdateReseller(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ResellerUpdate) => api<ResellerDetail>(`/resellers/${id}`, { method: 'PUT', body, silent: true }),
    onSuccess: (row) => {
      replaceReseller(qc, row);
      void qc.invalidateQueries({ queryKey: queryKeys.resellers.lists() });
    },
  });
}

/** PUT add_domain; the page shows the server message or 'Erro desconhecido' itself. */
export function useAddDomain(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (dns_reseller: string) => api<DomainRow>(`/resellers/${id}/add_domain`, { method: 'PUT', body: { dns_reseller }, silent: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.resellers.domains(id) }),
  });
}
