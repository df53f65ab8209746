import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

export interface Bouquet {
  id: number;
  bouquet_name: string;
}

/** Every bouquet (admin only; not paged). */
export function useBouquets() {
  return useQuery({
    queryKey: queryKeys.bouquets(),
    queryFn: ({ signal }) => api<{ data: Bouquet[] }>('/admin/bouquets', { signal }).then((r) => r.data),
  });
}

export function useSaveBouquet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, bouquet_name }: { id?: number; bouquet_name: string }) =>
      id
        ? api<Bouquet>(`/admin/bouquets/${id}`, { method: 'PUT', body: { bouquet_name } })
        : api<Bouquet>('/admin/bouquets', { method: 'POST', body: { bouquet_name } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.bouquets() }),
  });
}

export function useDeleteBouquet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/admin/bouquets/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.bouquets() });
      // Packages may reference the deleted bouquet.
      void qc.invalidateQueries({ queryKey: queryKeys.packages.all() });
    },
  });
}
