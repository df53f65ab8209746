import dayjs from 'dayjs';
import 'dayjs/locale/pt-br';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enUS from './en-US.json';
import { detectLanguage, LANG_STORAGE_KEY, LANGS, type Lang, normalizeLang } from './lang';
import ptBR from './pt-BR.json';

export { detectLanguage, LANG_STORAGE_KEY, LANGS, type Lang, normalizeLang } from './lang';

function applyLocale(lang: Lang): void {
  dayjs.locale(lang === 'pt-BR' ? 'pt-br' : 'en');
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
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
  resources: { 'pt-BR': { translation: ptBR }, 'en-US': { translation: enUS } },
  lng: initial,
  fallbackLng: 'pt-BR',
  supportedLngs: [...LANGS],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});
applyLocale(initial);

export function currentLang(): Lang {
  return normalizeLang(i18n.language) ?? 'pt-BR';
}

/** Switches the language and remembers it in localStorage `panel.lang`. */
export function setLanguage(lang: Lang): void {
  localStorage.setItem(LANG_STORAGE_KEY, lang);
  applyLocale(lang);
  void i18n.changeLanguage(lang);
}

export default i18n;
