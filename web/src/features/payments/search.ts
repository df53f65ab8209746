import { enumParam, tableSearch, textParam } from '../../components/table/tableSearch';

export const PAYMENT_STATUSES = ['pending', 'applied', 'paid_awaiting_credits', 'expired', 'rejected', 'failed'] as const;

/** validateSearch of /payments: page, per and the filters (newest first). */
export const paymentsSearch = tableSearch<{ status?: (typeof PAYMENT_STATUSES)[number]; line?: string }>([], (raw) => ({
  status: enumParam(raw.status, PAYMENT_STATUSES),
  line: textParam(raw.line, 50),
}));
