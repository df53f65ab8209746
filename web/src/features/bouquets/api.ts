import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { catalogueKeys } from '../../api/catalogue';
import { packageKeys } from '../packages/queryKeys';
import { bouquetKeys } from './queryKeys';


export function useSaveBouquet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, bouquet_name }: { id?: number; bouquet_name: string }) =>
      id ? api.PUT('/api/admin/bouquets/{id}', { params: { path: { id } }, body: { bouquet_name } }) : api.POST('/api/admin/bouquets', { body: { bouquet_name } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: catalogueKeys.bouquets() }),
  });
}

export function useDeleteBouquet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.DELETE('/api/admin/bouquets/{id}', { params: { path: { id } } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: catalogueKeys.bouquets() });
      // Packages may reference the deleted bouquet.
      void qc.invalidateQueries({ queryKey: packageKeys.all() });
    },
  });
}

/** One bouquet with the ids of its categories and single streams. */
export function useBouquetContents(id: number) {
  return useQuery({
    queryKey: bouquetKeys.contents(id),
    queryFn: ({ signal }) => api.GET('/api/admin/bouquets/{id}', { params: { path: { id } }, signal }),
    staleTime: 0,
  });
}

/** PUT /admin/bouquets/{id} with its categories and streams (each list replaces the bouquet's). */
export function useSaveBouquetContents(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { bouquet_name: string; categories: number[]; streams: number[] }) => api.PUT('/api/admin/bouquets/{id}', { params: { path: { id } }, body }),
    onSuccess: (saved) => {
      qc.setQueryData(bouquetKeys.contents(id), saved);
      return qc.invalidateQueries({ queryKey: catalogueKeys.bouquets() });
    },
  });
}
