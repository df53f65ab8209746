import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ONLINE_REFRESH_MS } from '../../api/p2pOnline';
import { pagedListCache, whilePending } from '../../api/pageCache';
import { reloadProfile } from '../../api/profile';
import { queryClient } from '../../api/queryClient';
import { p2pKeys } from './queryKeys';
import type { P2pCreate, P2pTrialCreate, P2pUpdate, P2pUser, P2pUsersQuery } from '../../api/types';
import { useIntentMutation } from '../../api/useIntentMutation';
import { useRowAction } from '../../components/table/rowActions';
import i18n from '../../i18n';
import { isValidId } from '../../lib/ids';

export function useP2pUsers(query: P2pUsersQuery) {
  return useQuery({
    queryKey: p2pKeys.list(query),
    queryFn: ({ signal }) => api.GET('/api/p2p/users', { params: { query }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: whilePending,
  });
}

export function useP2pUser(id: number) {
  return useQuery({
    queryKey: p2pKeys.one(id),
    queryFn: ({ signal }) => api.GET('/api/p2p/users/{id}', { params: { path: { id } }, signal }),
    enabled: isValidId(id),
  });
}

/** Pending and failed deliveries to the P2P server (admins). */
export function useP2pOutbox(enabled: boolean) {
  return useQuery({
    queryKey: p2pKeys.outbox(),
    queryFn: ({ signal }) => api.GET('/api/admin/p2p/outbox', { signal, silent: true }),
    enabled,
    refetchInterval: ONLINE_REFRESH_MS,
  });
}

export function useImportPreview() {
  return useQuery({
    queryKey: p2pKeys.importPreview(),
    queryFn: ({ signal }) => api.GET('/api/p2p/import_preview', { signal, silent: true }),
    retry: false,
  });
}

const accounts = pagedListCache<P2pUser>(p2pKeys.lists, p2pKeys.one);
const refreshImportPreview = () => queryClient.invalidateQueries({ queryKey: p2pKeys.importPreview() });

/** New accounts show up on the list's next load; the balance paid for them. */
function accountCreated(): Promise<void> {
  void reloadProfile();
  return accounts.reload();
}

/** P2P's texts, then the lines', word these calls' errors (the client toasts them). */
const P2P_ERRORS = { errorScopes: ['p2p', 'users'] } as const;

/** The path of a call about one account, and its error texts. */
const about = (id: number) => ({ params: { path: { id } }, ...P2P_ERRORS });

// --- Creation. The client toasts a failure; the form marks the field it names. ---

/** A paid account, priced like a line: spends credits, keyed per intent (the values sent). */
export function useCreateP2pUser() {
  return useIntentMutation({
    mutationFn: (body: P2pCreate, idempotencyKey) => api.POST('/api/p2p/users', { body, idempotencyKey, ...P2P_ERRORS }),
    onSuccess: accountCreated,
  });
}

/** A free trial (no credits: no key). */
export function useCreateP2pTrial() {
  return useMutation({
    mutationFn: (body: P2pTrialCreate) => api.POST('/api/p2p/test_users', { body, ...P2P_ERRORS }),
    onSuccess: accountCreated,
  });
}

// --- Changes of one account. ---

/** The client toasts a failure; the form marks the field it names. */
export function useUpdateP2pUser() {
  return useMutation({
    mutationFn: ({ id, ...body }: P2pUpdate & { id: number }) => api.PUT('/api/p2p/users/{id}', { ...about(id), body }),
    onSuccess: accounts.replace,
  });
}

/** Renewal by months (1 credit each): keyed per intent (account and months; another amount is another intent). */
export function useRenewP2pUser() {
  return useIntentMutation({
    mutationFn: ({ id, months }: { id: number; months: number }, idempotencyKey) => api.POST('/api/p2p/users/{id}/renew', { ...about(id), body: { months }, idempotencyKey }),
    onSuccess: (user) => {
      accounts.replace(user);
      void reloadProfile();
    },
  });
}

// --- Row actions of the list: all share P2P_ROW_ACTIONS, so the list shows a row busy while one runs. ---

export const P2P_ROW_ACTIONS = ['p2p', 'row-action'] as const;

function useP2pRowAction<V extends { id: number }>(mutationFn: (variables: V) => Promise<P2pUser | undefined>, success: (variables: V) => string) {
  return useRowAction({ mutationKey: P2P_ROW_ACTIONS, mutationFn, replace: accounts.replace, drop: accounts.drop, success });
}

export const useSetP2pBlocked = () =>
  useP2pRowAction(
    ({ id, block }: { id: number; block: boolean }) => (block ? api.POST('/api/p2p/users/{id}/block', about(id)) : api.POST('/api/p2p/users/{id}/unblock', about(id))),
    ({ block }) => i18n.t(block ? 'users.block.success' : 'users.unblock.success'),
  );

export const useDeleteP2pUser = () =>
  useP2pRowAction(
    ({ id }: { id: number }) => api.DELETE('/api/p2p/users/{id}', about(id)).then(() => undefined),
    () => i18n.t('p2p.removed'),
  );

// --- The old P2P panel. ---

/** Signs in to the old panel to see its clients (the preview reloads); a reply without `login` carries the server's refusal. */
export function useAttachOldLogin() {
  return useMutation({
    mutationFn: ({ username, password }: { username: string; password: string }) => api.POST('/api/p2p/attach_login', { body: { username, password }, ...P2P_ERRORS }),
    onSuccess: (r) => (r.login ? refreshImportPreview() : undefined),
  });
}

/** Moves an old account's balance into the caller's: keyed per intent (the login), so a retry cannot credit twice. */
export function useMigrateOldCredits() {
  return useIntentMutation({
    mutationFn: ({ username, password }: { username: string; password: string }, idempotencyKey) =>
      api.POST('/api/p2p/migrate_reseller', { body: { username, password }, idempotencyKey, ...P2P_ERRORS }),
    onSuccess: () => void reloadProfile(),
  });
}

/** Imports every client of the attached old login; the preview reloads whether or not it went through. */
export function useMigrateOldClients() {
  return useMutation({
    mutationFn: () => api.POST('/api/p2p/migrate_clients', P2P_ERRORS),
    onSuccess: () => void accounts.reload(),
    onSettled: refreshImportPreview,
  });
}
