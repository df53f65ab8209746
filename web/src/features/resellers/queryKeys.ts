import type { ResellersQuery } from '../../api/types';

/**
 * The resellers feature's query keys (its public file). The reseller look-ups of api/resellerSearch.ts
 * are in this family too: invalidating `all` refreshes the pickers.
 */
export const resellerKeys = {
  all: () => ['resellers'] as const,
  lists: () => ['resellers', 'list'] as const,
  /** ResellerPage: GET /resellers. */
  list: (query: ResellersQuery) => ['resellers', 'list', query] as const,
  /** ResellerDetail: GET /resellers/{id}. */
  one: (id: number) => ['resellers', 'one', id] as const,
  /** Every page of one reseller's ledger. */
  ledger: (id: number) => ['resellers', 'ledger', id] as const,
  /** A page of GET /resellers/{id}/ledger. */
  ledgerPage: (id: number, page: number, per: number) => ['resellers', 'ledger', id, page, per] as const,
  /** Domain[]: GET /resellers/{id}/domains (the `data` array). */
  domains: (id: number) => ['resellers', 'domains', id] as const,
};
