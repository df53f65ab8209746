import { useTranslation } from 'react-i18next';
import { currentLang, type Lang, setLanguage } from '../../i18n';

const OPTIONS: { value: Lang; label: string; testId: string }[] = [
  { value: 'pt-BR', label: 'PT', testId: 'lang-ptBr' },
  { value: 'en-US', label: 'EN', testId: 'lang-enUs' },
];

/** PT | EN switch of the sign-in page and the top bar (plain buttons: it is in the entry chunk); kept in localStorage `panel.lang`. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const value = i18n.language ? currentLang() : 'pt-BR';
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
