import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currentLang, type Lang, setLanguage } from '../../i18n';

const OPTIONS: { value: Lang; label: string; testId: string }[] = [
  { value: 'pt-BR', label: 'PT', testId: 'lang-ptBr' },
  { value: 'en-US', label: 'EN', testId: 'lang-enUs' },
];

/** ptBr / enUs switch; the choice is kept in localStorage `panel.lang`. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const value = i18n.language ? currentLang() : 'pt-BR';
  return (
    <SegmentedControl
      size="xs"
      radius="xl"
      aria-label={t('topbar.language')}
      data-testid="lang-switch"
      value={value}
      onChange={(v) => setLanguage(v as Lang)}
      data={OPTIONS.map((o) => ({
        value: o.value,
        label: (
          <span data-testid={o.testId} lang={o.value}>
            {o.label}
          </span>
        ),
      }))}
    />
  );
}
