import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { settingsKeys } from '../settings/queryKeys';
import { serverKeys } from './queryKeys';

/** Every registered streaming edge (admin only; a handful, not paged). */
export function useServers() {
  return useQuery({
    queryKey: serverKeys.list(),
    queryFn: ({ signal }) => api.GET('/api/admin/servers', { signal }).then((r) => r.data),
  });
}

/** The default_edge setting (the id of the edge stream URLs point at, or ''), from the settings page's query. */
export function useDefaultEdge() {
  return useQuery({
    queryKey: settingsKeys.all(),
    queryFn: ({ signal }) => api.GET('/api/admin/settings', { signal }),
    select: (r) => r.settings.default_edge ?? '',
  });
}

/** POST /admin/servers: answers the edge's key, this once (silent: the form shows the error). */
export function useRegisterServer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; url: string }) => api.POST('/api/admin/servers', { body, silent: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: serverKeys.list() }),
  });
}

export function useRemoveServer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.DELETE('/api/admin/servers/{id}', { params: { path: { id } } }),
    // removing the default edge empties the default_edge setting
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: serverKeys.list() }), qc.invalidateQueries({ queryKey: settingsKeys.all() })]),
  });
}
