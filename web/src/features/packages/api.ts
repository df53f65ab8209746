import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import type { Paged } from '../../api/errors';

export const DURATION_UNITS = ['hours', 'days', 'months', 'years'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];

export interface Package {
  id: number;
  package_name: string;
  is_trial: number;
  is_official: number;
  max_connections: number;
  official_credits: number;
  official_duration: number;
  official_duration_in: DurationUnit;
  trial_credits: number;
  trial_duration: number;
  trial_duration_in: DurationUnit;
  /** Bouquet ids as strings. */
  bouquets: string[];
}

export type PackageInput = Omit<Package, 'id'>;

type ListQuery = Record<string, string | number | undefined>;

export function usePackages(query: ListQuery) {
  return useQuery({
    queryKey: queryKeys.packages.list(query),
    queryFn: ({ signal }) => api<Paged<Package>>('/admin/packages', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export const packageQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.packages.one(id),
    queryFn: ({ signal }) => api<Package>(`/admin/packages/${id}`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });

export function usePackage(id: number) {
  return useQuery(packageQuery(id));
}

/** Create (no id) or update (with id); invalidates every package query on success. */
export function useSavePackage(id?: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PackageInput) =>
      id ? api<Package>(`/admin/packages/${id}`, { method: 'PUT', body }) : api<Package>('/admin/packages', { method: 'POST', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.packages.all() }),
  });
}
