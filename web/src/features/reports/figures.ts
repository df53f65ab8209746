import type { SalesReport } from '../../api/types';

export type Counts = SalesReport['totals'];

/** Every figure of a bar, in the order of the cards and the CSV columns (the texts under `figures` name each). */
export const FIGURES = ['lines_created', 'trials_created', 'renewals', 'credits_spent', 'pix_payments', 'pix_received_cents', 'expired'] as const satisfies readonly (keyof Counts)[];
export type Figure = (typeof FIGURES)[number];

/** Reais, not cents, wherever a person reads it. */
export const isMoney = (f: Figure) => f === 'pix_received_cents';
