import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryClient } from '../../api/queryClient';
import { vodKeys } from './queryKeys';
import type { AdminVodsQuery, ManualVodRequestBody, VodRequestBody, VodsQuery } from '../../api/types';

/** The two content-request lists page by these (docs/rules.md). */
export const VOD_PER_OPTIONS = [10, 25, 50, 100] as const;
export type VodPer = (typeof VOD_PER_OPTIONS)[number];
export const PENDING = 1;
export const ADDED = 2;
export type VodStatus = typeof PENDING | typeof ADDED;

export function useVodRequests(query: VodsQuery) {
  return useQuery({
    queryKey: vodKeys.list(query),
    queryFn: ({ signal }) => api.GET('/api/vods', { params: { query }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAdminVods(query: AdminVodsQuery) {
  return useQuery({
    queryKey: vodKeys.admin(query),
    queryFn: ({ signal }) => api.GET('/api/admin/vods', { params: { query }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Catalogue search through the server (TMDB; the key never reaches the browser). */
export function useCatalogueSearch(q: string) {
  return useQuery({
    queryKey: vodKeys.search(q),
    queryFn: ({ signal }) => api.GET('/api/vods/search', { params: { query: { q } }, signal, silent: true }).then((r) => r.data),
    enabled: q.trim().length >= 2,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Whether the catalogue search is configured: asked once when the page opens (masters and admins). */
export function useCatalogueSearchStatus(enabled: boolean) {
  return useQuery({
    queryKey: vodKeys.searchStatus(),
    queryFn: ({ signal }) => api.GET('/api/vods/search/status', { signal, silent: true }),
    enabled,
    staleTime: 5 * 60_000,
  });
}

const invalidateVods = () => queryClient.invalidateQueries({ queryKey: vodKeys.all() });

// A request's failure is toasted by its dialog with fixed texts (silent); the admin's changes are toasted by the client. Both lists reload once done.

export function useRequestTitle() {
  return useMutation({
    mutationFn: (body: VodRequestBody) => api.POST('/api/vods/pedido', { body, silent: true }),
    onSuccess: () => void invalidateVods(),
  });
}

/** 'Ask by name' (masters and admins): a title typed by hand. */
export function useRequestByHand() {
  return useMutation({
    mutationFn: (body: ManualVodRequestBody) => api.POST('/api/vods/pedido/manual', { body, silent: true }),
    onSuccess: () => void invalidateVods(),
  });
}

export function useSetRequestStatus() {
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: VodStatus }) => api.PUT('/api/vods/pedido/{id}', { params: { path: { id } }, body: { status } }),
    onSuccess: invalidateVods,
  });
}

export function useSetStatusMany() {
  return useMutation({
    mutationFn: ({ ids, status }: { ids: number[]; status: VodStatus }) => api.PUT('/api/admin/vods/status', { body: { ids, status } }),
    onSuccess: invalidateVods,
  });
}

export function useRemoveMany() {
  return useMutation({
    mutationFn: (ids: number[]) => api.DELETE('/api/admin/vods', { body: { ids } }),
    onSuccess: invalidateVods,
  });
}
