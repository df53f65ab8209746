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

type Tree = { [key: string]: string | Tree };

/** Feature texts may wait in pending/<area>.<lang>.json until merged into the main files. */
const pending = import.meta.glob<Tree>('./pending/*.json', { eager: true, import: 'default' });
function withPending(base: Tree, lang: Lang): Tree {
  const merge = (a: Tree, b: Tree): Tree => {
    const out: Tree = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = typeof v === 'object' && typeof out[k] === 'object' ? merge(out[k] as Tree, v) : v;
    return out;
  };
  return Object.entries(pending)
    .filter(([file]) => file.endsWith(`.${lang}.json`))
    .reduce((acc, [, tree]) => merge(acc, tree), base);
}

void i18n.use(initReactI18next).init({
  resources: { 'pt-BR': { translation: withPending(ptBR, 'pt-BR') }, 'en-US': { translation: withPending(enUS, 'en-US') } },
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
