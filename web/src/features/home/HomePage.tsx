import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../auth/profile';

/** Dashboard placeholder: the counters arrive with the dashboard feature (no fake numbers). */
export function HomePage() {
  const { t } = useTranslation();
  const { data } = useProfile();
  return (
    <Stack gap="md" maw={720}>
      <Paper withBorder p="lg" radius="md">
        <Title order={2} size="h3" data-testid="home-welcome">
          {t('home.welcome', { username: data?.username ?? '' })}
        </Title>
        <Text c="dimmed" mt={4}>
          {t('home.intro')}
        </Text>
      </Paper>
      <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />} title={t('home.comingSoonTitle')}>
        {t('home.comingSoon')}
      </Alert>
    </Stack>
  );
}
