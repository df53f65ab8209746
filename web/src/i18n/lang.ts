/** Pure language helpers (no i18next, testable in node). */
export type Lang = 'pt-BR' | 'en-US';
export const LANGS: readonly Lang[] = ['pt-BR', 'en-US'];
export const LANG_STORAGE_KEY = 'panel.lang';
/** Logged (console.error) for a text no language has: the browser tests fail on it. */
export const MISSING_KEY_PREFIX = '[i18n] missing key:';

/** Accepts both the i18n codes and the old panel's names (ptBr / enUs). */
export function normalizeLang(value: string | null | undefined): Lang | null {
  if (!value) return null;
  const v = value.toLowerCase().replace('_', '-');
  if (v === 'pt-br' || v === 'ptbr') return 'pt-BR';
  if (v === 'en-us' || v === 'enus') return 'en-US';
  return null;
}

/** Stored choice first; otherwise an English browser (navigator.language en-*) gets en-US; default pt-BR. */
export function detectLanguage(stored: string | null, browser: string | undefined): Lang {
  const chosen = normalizeLang(stored);
  if (chosen) return chosen;
  return browser?.toLowerCase().startsWith('en') ? 'en-US' : 'pt-BR';
}
