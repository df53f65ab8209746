import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { detectLanguage, LANG_STORAGE_KEY, LANGS, type Lang, MISSING_KEY_PREFIX, normalizeLang } from './lang';
// The entry holds only the texts shown before the signed-in layout is in (route states, the
// not-found page); the layout loads the rest (signedInTexts.ts). The light pages (sign-in, the
// customer's, trials) do not use i18next: public/texts.ts.
import { app, auth, common, errors, nav, topbar, twoFactor } from './pt-BR.json';

const SIGNED_OUT_TEXTS = { app, auth, common, errors, nav, topbar, twoFactor };

export { detectLanguage, LANG_STORAGE_KEY, LANGS, type Lang, MISSING_KEY_PREFIX, normalizeLang } from './lang';

// dayjs follows the language in ./dayjsLocale (loaded by the signed-in layout, not the entry chunk).
function applyLocale(lang: Lang): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}

/** en-US texts are a chunk of their own: most users read pt-BR only (first-load budget). */
function loadTexts(lang: Lang): Promise<void> {
  if (lang !== 'en-US' || i18n.hasResourceBundle('en-US', 'translation')) return Promise.resolve();
  return import('./en-US.json').then((texts) => {
    i18n.addResourceBundle('en-US', 'translation', texts.default, true, true);
  });
}

function readStored(): string | null {
  try {
    return localStorage.getItem(LANG_STORAGE_KEY);
  } catch {
    return null;
  }
}

const initial = detectLanguage(
  typeof window === 'undefined' ? null : readStored(),
  typeof navigator === 'undefined' ? undefined : navigator.language,
);

void i18n.use(initReactI18next).init({
  resources: { 'pt-BR': { translation: SIGNED_OUT_TEXTS } },
  partialBundledLanguages: true,
  lng: initial,
  fallbackLng: 'pt-BR',
  supportedLngs: [...LANGS],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  // A key no language has (or a plural key called without `count`) is reported: the browser
  // tests fail on any console error starting with MISSING_KEY_PREFIX.
  saveMissing: true,
  missingKeyHandler: (lngs, _ns, key) => console.error(`${MISSING_KEY_PREFIX} ${key} (${lngs.join(', ')})`),
});
applyLocale(initial);

/** Resolves once the starting language's texts are in; main.tsx renders after it. */
export const i18nReady: Promise<void> = loadTexts(initial).then(() => {
  if (initial !== 'pt-BR') void i18n.changeLanguage(initial);
});

export function currentLang(): Lang {
  return normalizeLang(i18n.language) ?? 'pt-BR';
}

/** Switches the language and remembers it in localStorage `panel.lang`. */
export function setLanguage(lang: Lang): void {
  localStorage.setItem(LANG_STORAGE_KEY, lang);
  void loadTexts(lang).then(() => {
    applyLocale(lang);
    void i18n.changeLanguage(lang);
  });
}

export default i18n;
