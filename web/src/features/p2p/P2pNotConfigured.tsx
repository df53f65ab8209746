import { Alert, Text } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../api/profile';

/**
 * Why P2P is unavailable when the P2P server is not configured, in the reader's words: resellers and
 * masters are told what they cannot do and whom to ask; admins also what to configure.
 * `online`: the online list's own wording (it comes from the P2P server).
 */
export function P2pNotConfigured({ online = false, mb = 'sm', testId = 'p2p-not-configured' }: { online?: boolean; mb?: string; testId?: string }) {
  const { t } = useTranslation();
  const profile = useProfile();
  const isAdmin = profile.data?.type === 'admin';
  return (
    <Alert color="yellow" variant="light" mb={mb} icon={<IconPlugConnectedX size={18} />} title={t('p2p.notConfigured.title')} data-testid={testId}>
      <Text size="sm">{online ? t('p2p.notConfigured.online') : t('p2p.notConfigured.body')}</Text>
      <Text size="sm" mt={4} data-testid={`${testId}-ask`}>
        {isAdmin ? t('p2p.notConfigured.admin') : t('p2p.notConfigured.ask')}
      </Text>
    </Alert>
  );
}
