import type { QueryKey } from '@tanstack/react-query';
import type { PageMeta } from './types';
import { queryClient } from './queryClient';

type Page<T> = { data: T[]; meta: PageMeta };

/**
 * The cache of a paged list family (`lists`: the prefix of its pages) and its single-row entries
 * (`one`), as a row action or a creation changes them. `dependents`: other queries counting these
 * rows (the dashboard's cards), marked stale by every change so their next view asks again.
 */
export function pagedListCache<T extends { id: number }>(lists: () => QueryKey, one: (id: number) => QueryKey, dependents: QueryKey[] = []) {
  const touchDependents = () => {
    for (const queryKey of dependents) void queryClient.invalidateQueries({ queryKey });
  };
  return {
    /** Puts a changed row in every cached page (and its single-row entry): the list updates at once. */
    replace(row: T): void {
      queryClient.setQueriesData<Page<T>>({ queryKey: lists() }, (old) => (old ? { ...old, data: old.data.map((r) => (r.id === row.id ? row : r)) } : old));
      queryClient.setQueryData(one(row.id), row);
      touchDependents();
    },
    /** Takes a removed row out of every cached page, then refetches to fill the page. */
    drop(id: number): void {
      queryClient.setQueriesData<Page<T>>({ queryKey: lists() }, (old) =>
        old?.data.some((r) => r.id === id)
          ? { data: old.data.filter((r) => r.id !== id), meta: { ...old.meta, total: Math.max(0, old.meta.total - 1), count: Math.max(0, old.meta.count - 1) } }
          : old,
      );
      queryClient.removeQueries({ queryKey: one(id) });
      void queryClient.invalidateQueries({ queryKey: lists() });
      touchDependents();
    },
    /** New rows show up on the list's next load. */
    reload: (): Promise<void> => {
      touchDependents();
      return queryClient.invalidateQueries({ queryKey: lists() });
    },
  };
}

/** While a shown row waits for the P2P server, the list asks again every few seconds to show it delivered. */
export const PENDING_REFRESH_MS = 5_000;
export const whilePending = (q: { state: { data?: { data: { sync_state?: string | null }[] } } }) =>
  q.state.data?.data.some((r) => r.sync_state === 'pending') ? PENDING_REFRESH_MS : false;
