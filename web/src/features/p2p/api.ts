import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { showError } from '../../api/notify';
import { reloadProfile } from '../../api/profile';
import { useIntentMutation } from '../../api/useIntentMutation';
import { api } from '../../api/client';
import { ONLINE_REFRESH_MS } from '../../api/p2pOnline';
import { queryClient } from '../../api/queryClient';
import { dropFromPages, replaceInPages, whilePending } from '../../api/pageCache';
import { queryKeys } from '../../api/queryKeys';
import type { P2pCreate, P2pTrialCreate, P2pUpdate, P2pUser, P2pUsersQuery } from '../../api/types';


export function useP2pUsers(query: P2pUsersQuery) {
  return useQuery({
    queryKey: queryKeys.p2p.list(query),
    queryFn: ({ signal }) => api.GET('/api/p2p/users', { params: { query }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: whilePending,
  });
}

export function useP2pUser(id: number) {
  return useQuery({
    queryKey: queryKeys.p2p.one(id),
    queryFn: ({ signal }) => api.GET('/api/p2p/users/{id}', { params: { path: { id } }, signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
}


/** Pending and failed deliveries to the P2P server (admins). */
export function useP2pOutbox(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.p2p.outbox(),
    queryFn: ({ signal }) => api.GET('/api/admin/p2p/outbox', { signal, silent: true }),
    enabled,
    refetchInterval: ONLINE_REFRESH_MS,
  });
}

export function useImportPreview() {
  return useQuery({
    queryKey: queryKeys.p2p.importPreview(),
    queryFn: ({ signal }) => api.GET('/api/p2p/import_preview', { signal, silent: true }),
    retry: false,
  });
}

/** Replaces the account with the same id in every cached list page (and its own cache). */
export const replaceP2pUser = (user: P2pUser): void => replaceInPages(queryKeys.p2p.lists(), queryKeys.p2p.one(user.id), user);

/** Takes a removed account out of the cached pages, then refetches to fill the page. */
export const dropP2pUser = (id: number): void => dropFromPages<P2pUser>(queryKeys.p2p.lists(), queryKeys.p2p.one(id), id);

export const invalidateP2pUsers = () => queryClient.invalidateQueries({ queryKey: queryKeys.p2p.lists() });

/**
 * A change to one P2P account (renew): one mutation, spends keyed per intent (the variables, which
 * name the account). On success the account replaces its cached copies and the balance reloads; a
 * failure is shown as a toast.
 */
export function useP2pChange<V extends { id: number }>(call: (variables: V, idempotencyKey: string) => Promise<P2pUser>) {
  return useIntentMutation({
    mutationFn: call,
    onSuccess: (user: P2pUser) => {
      replaceP2pUser(user);
      void reloadProfile();
    },
    onError: (e) => showError(e, 'p2p', 'users'),
  });
}

// --- Calls. All are `silent`: the caller shows the error (showError(e, 'p2p', 'users')). ---

const about = (id: number) => ({ params: { path: { id } }, silent: true });

export const createP2pUser = (body: P2pCreate, idempotencyKey: string) => api.POST('/api/p2p/users', { body, idempotencyKey, silent: true });
export const createP2pTrial = (body: P2pTrialCreate) => api.POST('/api/p2p/test_users', { body, silent: true });
export const updateP2pUser = (id: number, body: P2pUpdate) => api.PUT('/api/p2p/users/{id}', { ...about(id), body });
export const deleteP2pUser = (id: number) => api.DELETE('/api/p2p/users/{id}', about(id));
export const setP2pBlocked = (id: number, block: boolean) =>
  block ? api.POST('/api/p2p/users/{id}/block', about(id)) : api.POST('/api/p2p/users/{id}/unblock', about(id));
export const renewP2pUser = (id: number, months: number, idempotencyKey: string) =>
  api.POST('/api/p2p/users/{id}/renew', { ...about(id), body: { months }, idempotencyKey });

export const attachOldLogin = (username: string, password: string) => api.POST('/api/p2p/attach_login', { body: { username, password }, silent: true });
export const migrateOldCredits = (username: string, password: string, idempotencyKey: string) =>
  api.POST('/api/p2p/migrate_reseller', { body: { username, password }, idempotencyKey, silent: true });
export const migrateOldClients = () => api.POST('/api/p2p/migrate_clients', { silent: true });
