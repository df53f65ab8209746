import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { packageKeys } from './queryKeys';
import type { PackageInput, PackagesQuery } from '../../api/types';
import { isValidId } from '../../lib/ids';

export function usePackages(query: PackagesQuery) {
  return useQuery({
    queryKey: packageKeys.list(query),
    queryFn: ({ signal }) => api.GET('/api/admin/packages', { params: { query }, signal }),
    placeholderData: keepPreviousData,
  });
}

export const packageQuery = (id: number) =>
  queryOptions({
    queryKey: packageKeys.one(id),
    queryFn: ({ signal }) => api.GET('/api/admin/packages/{id}', { params: { path: { id } }, signal }),
    enabled: isValidId(id),
  });

export function usePackage(id: number) {
  return useQuery(packageQuery(id));
}

/** Create (no id) or update (with id); invalidates every package query on success. */
export function useSavePackage(id?: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PackageInput) =>
      id ? api.PUT('/api/admin/packages/{id}', { params: { path: { id } }, body }) : api.POST('/api/admin/packages', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: packageKeys.all() }),
  });
}
