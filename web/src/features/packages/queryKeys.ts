import type { PackagesQuery } from '../../api/types';

/** The packages feature's query keys (its public file: other features import its keys from here only). */
export const packageKeys = {
  all: () => ['packages'] as const,
  /** GET /admin/packages (Package rows). */
  list: (query: PackagesQuery) => ['packages', 'list', query] as const,
  /** Package: GET /admin/packages/{id}. */
  one: (id: number) => ['packages', 'one', id] as const,
};
