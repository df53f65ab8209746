import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { apiKeyKeys } from './queryKeys';

/** The signed-in account's API keys, newest first (a handful: not paged). */
export function useApiKeys() {
  return useQuery({
    queryKey: apiKeyKeys.list(),
    queryFn: ({ signal }) => api.GET('/api/api-keys', { signal }).then((r) => r.data),
  });
}

export type NewApiKey = { name: string; scopes: ('lines:read' | 'lines:write' | 'credits:read')[]; allowed_ips?: string[]; expires_at?: number | null };

/** POST /api-keys: answers the key, this once (silent: the form shows the error). */
export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NewApiKey) => api.POST('/api/api-keys', { body, silent: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKeyKeys.list() }),
  });
}

export function useRevokeApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.DELETE('/api/api-keys/{id}', { params: { path: { id } } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKeyKeys.list() }),
  });
}
