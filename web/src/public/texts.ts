import { useSyncExternalStore } from 'react';
import { detectLanguage, LANG_STORAGE_KEY, type Lang, MISSING_KEY_PREFIX } from '../i18n/lang';
// The light pages' texts, from the panel's own files (the same words), without i18next: only these
// namespaces are in this entry (the `-texts` query, vite.config.ts textParts); en-US is a chunk of
// its own, fetched for English readers only. i18n/textParts.test.ts checks the pages use no other.
import { auth, common, customer, errors, topbar, trialOffer, twoFactor } from '../i18n/pt-BR.json?public-texts';

type Texts = Record<string, unknown>;
type Vars = Record<string, string | number>;

const PT: Texts = { auth, common, customer, errors, topbar, trialOffer, twoFactor };
let texts: Texts = PT;
let lang: Lang = 'pt-BR';
const listeners = new Set<() => void>();

function lookup(from: Texts, key: string): string | undefined {
  let node: unknown = from;
  for (const part of key.split('.')) node = node && typeof node === 'object' ? (node as Texts)[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** The text of `ns.key` in the current language (pt-BR when it has none); `{{name}}` filled from vars; `count` picks `_one`/`_other`. */
export function t(key: string, vars: Vars = {}): string {
  const plural = typeof vars.count === 'number' ? `${key}_${new Intl.PluralRules(lang).select(vars.count) === 'one' ? 'one' : 'other'}` : undefined;
  const keys = plural ? [plural] : [key];
  const text = keys.map((k) => lookup(texts, k) ?? lookup(PT, k)).find((s) => s !== undefined);
  if (text === undefined) {
    console.error(`${MISSING_KEY_PREFIX} ${plural ?? key} (${lang})`);
    return key;
  }
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}

/** Whether a text exists (an error code with a text of its own). */
export function hasText(key: string): boolean {
  return lookup(texts, key) !== undefined || lookup(PT, key) !== undefined;
}

export function currentLang(): Lang {
  return lang;
}

async function load(next: Lang): Promise<void> {
  if (next === 'en-US') {
    texts = (await import('./enTexts')).EN_TEXTS;
  } else texts = PT;
  lang = next;
  document.documentElement.lang = next;
  for (const l of listeners) l();
}

function stored(): string | null {
  try {
    return localStorage.getItem(LANG_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The language the panel would start in (stored choice, else the browser's); resolves once its texts are in. */
export function loadStartingLanguage(): Promise<void> {
  const start = detectLanguage(stored(), navigator.language);
  return start === 'pt-BR' ? Promise.resolve() : load(start).catch(() => undefined);
}

/** The language switch: remembered in localStorage `panel.lang`, as the panel does. */
export function setLanguage(next: Lang): void {
  try {
    localStorage.setItem(LANG_STORAGE_KEY, next);
  } catch {
    // private mode: the choice lasts this page only
  }
  void load(next).catch(() => undefined);
}

/** Re-renders the caller when the language changes. */
export function useLang(): Lang {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => lang,
  );
}

/** What the page shows for a failed call: `<scope>.errors.<CODE>`, then `errors.<CODE>`, then the server's message. */
export function errorText(e: unknown, scope?: string): string {
  const err = e as { code?: string; message?: string; field?: string } | null;
  const code = err && typeof err.code === 'string' ? err.code : 'UNKNOWN';
  if (scope && hasText(`${scope}.errors.${code}`)) return t(`${scope}.errors.${code}`);
  if (hasText(`errors.${code}`)) return t(`errors.${code}`, { message: err?.message ?? '', field: err?.field ?? '' });
  return err?.message || t('errors.UNKNOWN');
}
