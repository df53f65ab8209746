import { Alert, Text } from '@mantine/core';
import { IconWorldWww } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useComplements } from '../../api/complements';
import { useProfile } from '../../api/profile';
import './texts';

/**
 * Admins only: neither the main_domain setting nor PUBLIC_URL is set, so playlist and short
 * links carry whatever address the panel was reached at (see docs/decisions.md).
 */
export function PublicUrlNotice() {
  const { t } = useTranslation();
  const profile = useProfile();
  const complements = useComplements();
  const c = complements.data;
  if (profile.data?.type !== 'admin' || !c || c.public_url || c.settings.main_domain?.trim()) return null;
  return (
    <Alert variant="light" color="yellow" radius="md" icon={<IconWorldWww size={20} />} title={t('dashboard.publicUrl.title')} data-testid="public-url-notice">
      <Text size="sm">{t('dashboard.publicUrl.text', { origin: window.location.origin })}</Text>
    </Alert>
  );
}
