import { useTranslation } from 'react-i18next';
import type { EdgeServerCreated } from '../../api/types';
import { SecretShownOnce } from '../../components/SecretShownOnce';
import './texts';

/** The new edge's key, shown this once: copy it into the edge's nginx config (X-Edge-Key). */
export function ServerKey({ server, onDone }: { server: EdgeServerCreated; onDone: () => void }) {
  const { t } = useTranslation();
  const k = (key: string) => t(`servers.key.${key}`);
  return (
    <SecretShownOnce
      secret={server.key}
      texts={{ warningTitle: k('warningTitle'), warning: k('warning'), label: t('servers.key.label', { name: server.name }), howTo: k('howTo'), copy: k('copy'), copied: k('copied'), done: k('done') }}
      testIds={{ panel: 'server-key-panel', secret: 'server-key', copy: 'server-key-copy', done: 'server-key-done' }}
      onDone={onDone}
    />
  );
}
