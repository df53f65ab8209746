import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';

/** Every bouquet (admin only; not paged). */
export function useBouquets() {
  return useQuery({
    queryKey: queryKeys.bouquets(),
    queryFn: ({ signal }) => api.GET('/api/admin/bouquets', { signal }).then((r) => r.data),
  });
}

export function useSaveBouquet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, bouquet_name }: { id?: number; bouquet_name: string }) =>
      id ? api.PUT('/api/admin/bouquets/{id}', { params: { path: { id } }, body: { bouquet_name } }) : api.POST('/api/admin/bouquets', { body: { bouquet_name } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.bouquets() }),
  });
}

export function useDeleteBouquet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.DELETE('/api/admin/bouquets/{id}', { params: { path: { id } } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.bouquets() });
      // Packages may reference the deleted bouquet.
      void qc.invalidateQueries({ queryKey: queryKeys.packages.all() });
    },
  });
}
