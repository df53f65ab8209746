import { enumParam, tableSearch } from '../../components/table/tableSearch';

export const PURCHASE_STATUSES = ['pending', 'applied', 'paid_awaiting_credits', 'expired', 'rejected', 'failed'] as const;
export const DIRECTIONS = ['bought', 'sold'] as const;

/** validateSearch of /credit-purchases: page, per, the filters (newest first) and `buy=1` (the buy form open, the top bar's action). */
export const purchasesSearch = tableSearch<{ direction?: (typeof DIRECTIONS)[number]; status?: (typeof PURCHASE_STATUSES)[number]; buy?: '1' }>([], (raw) => ({
  direction: enumParam(raw.direction, DIRECTIONS),
  status: enumParam(raw.status, PURCHASE_STATUSES),
  buy: enumParam(raw.buy, ['1'] as const),
}));
