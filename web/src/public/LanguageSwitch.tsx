import type { Lang } from '../i18n/lang';
import { setLanguage, t, useLang } from './texts';

const OPTIONS: { value: Lang; label: string; testId: string }[] = [
  { value: 'pt-BR', label: 'PT', testId: 'lang-ptBr' },
  { value: 'en-US', label: 'EN', testId: 'lang-enUs' },
];

/** PT | EN, as the panel's top bar (the same classes and test ids); kept in localStorage `panel.lang`. */
export function LanguageSwitch() {
  const value = useLang();
  return (
    // biome-ignore lint/a11y/useSemanticElements: a labelled group of toggle buttons, not a form fieldset
    <div className="lang-switch" role="group" aria-label={t('topbar.language')} data-testid="lang-switch">
      {OPTIONS.map((o) => (
        <button key={o.value} type="button" lang={o.value} aria-pressed={value === o.value} data-testid={o.testId} onClick={() => setLanguage(o.value)}>
          {o.label}
        </button>
      ))}
    </div>
  );
}
