import type { Tx } from './tx.ts';

/**
 * A bounded map kept per database handle, in this process: the list totals and counts kept
 * between requests (db/paginate.ts, repos/scope-repo.ts, repos/line-filters-repo.ts). Full, it starts over.
 */
export function keptPerHandle<K, V>(max: number) {
  const maps = new WeakMap<Tx, Map<K, V>>();
  return {
    get: (db: Tx, key: K): V | undefined => maps.get(db)?.get(key),
    set(db: Tx, key: K, value: V): void {
      const map = maps.get(db) ?? new Map<K, V>();
      if (map.size >= max) map.clear();
      map.set(key, value);
      maps.set(db, map);
    },
    delete: (db: Tx, key: K): void => void maps.get(db)?.delete(key),
  };
}
