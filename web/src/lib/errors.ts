import { isApiError } from '../api/errors';
import i18n from '../i18n';

/** Features with their own error texts, under `<scope>.errors.<CODE>` (or `<CODE>_<field>`) in the i18n files. */
export type ErrorScope = 'users' | 'p2p' | 'resellers' | 'customer';

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
  const key = `errors.${e.code}`;
  if (i18n.exists(key)) return i18n.t(key, { message: e.message, field: e.field ?? '' });
  return e.message || i18n.t('errors.UNKNOWN');
}
