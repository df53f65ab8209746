import { isApiError } from '../api/errors';
import i18n from '../i18n';

/** Features with their own error texts, under `<scope>.errors.<CODE>` (or `<CODE>_<field>`) in the i18n files. */
export type ErrorScope = 'users' | 'p2p' | 'resellers' | 'customer' | 'creditSales' | 'telegram';

/**
 * The one way to word a failed call: the first of the scopes' own texts that exists
 * (`<scope>.errors.<CODE>_<field>`, then `<scope>.errors.<CODE>`), then the shared
 * `errors.<CODE>`, then the server's message. Anything that is not an API error: `errors.UNKNOWN`.
 */
export function errorText(e: unknown, ...scopes: ErrorScope[]): string {
  if (!isApiError(e)) return i18n.t('errors.UNKNOWN');
  for (const scope of scopes) {
    const keys = e.field ? [`${scope}.errors.${e.code}_${e.field}`, `${scope}.errors.${e.code}`] : [`${scope}.errors.${e.code}`];
    const key = keys.find((k) => i18n.exists(k));
    if (key) return i18n.t(key);
  }
  // a known kind in the user's language; INVALID's detail is only in the server's message
  if (e.problem && e.problem.reason !== 'INVALID' && e.field) return i18n.t('errors.VALIDATION_REASON', { field: e.field, reason: reasonText(e) });
  const key = `errors.${e.code}`;
  if (i18n.exists(key)) return i18n.t(key, { message: e.message, field: e.field ?? '' });
  return e.message || i18n.t('errors.UNKNOWN');
}

/**
 * What is wrong with a field, in the user's language, for under its input (the input's label names
 * the field): the text of the answer's `reason` (`errors.reasons.<REASON>`, with its limits), else
 * errorText.
 */
export function reasonText(e: unknown): string {
  if (!isApiError(e) || !e.problem) return errorText(e);
  const { reason, limits } = e.problem;
  // a range bounded on one side only has its own text
  const side = reason === 'OUT_OF_RANGE' && (limits?.min === undefined) !== (limits?.max === undefined) ? (limits?.min === undefined ? '_MAX' : '_MIN') : '';
  const key = `errors.reasons.${reason}${side}`;
  return i18n.exists(key) ? i18n.t(key, { min: limits?.min, max: limits?.max }) : i18n.t('errors.reasons.INVALID');
}
