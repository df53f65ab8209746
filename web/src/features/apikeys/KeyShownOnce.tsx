import { useTranslation } from 'react-i18next';
import type { ApiKeyCreated } from '../../api/types';
import { SecretShownOnce } from '../../components/SecretShownOnce';
import './texts';

/** The new API key, shown this once, with a copy button. */
export function KeyShownOnce({ created, onDone }: { created: ApiKeyCreated; onDone: () => void }) {
  const { t } = useTranslation();
  const k = (key: string) => t(`apiKeys.key.${key}`);
  return (
    <SecretShownOnce
      secret={created.key}
      texts={{ warningTitle: k('warningTitle'), warning: k('warning'), label: t('apiKeys.key.label', { name: created.name }), howTo: k('howTo'), copy: k('copy'), copied: k('copied'), done: k('done') }}
      testIds={{ panel: 'api-key-panel', secret: 'api-key-secret', copy: 'api-key-copy', done: 'api-key-done' }}
      onDone={onDone}
    />
  );
}
