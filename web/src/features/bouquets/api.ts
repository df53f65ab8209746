import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

export interface Bouquet {
  id: number;
  bouquet_name: string;
}

export const bouquetsKey = ['bouquets'] as const;

/** Every bouquet (admin only; not paged). */
export function useBouquets() {
  return useQuery({
    queryKey: bouquetsKey,
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
    onSuccess: () => qc.invalidateQueries({ queryKey: bouquetsKey }),
  });
}

export function useDeleteBouquet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/admin/bouquets/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: bouquetsKey });
      // Packages may reference the deleted bouquet.
      void qc.invalidateQueries({ queryKey: ['packages'] });
    },
  });
}
