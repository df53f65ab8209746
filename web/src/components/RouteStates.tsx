import { Alert, Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link, useRouter } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';

export function PageLoader() {
  return (
    <Center py="xl" data-testid="page-loader">
      <Loader />
    </Center>
  );
}

/** `standalone`: shown outside the signed-in layout, so it is the page's main landmark itself. */
export function NotFoundPage({ standalone = false }: { standalone?: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack component={standalone ? 'main' : 'div'} align="center" py="xl" gap="sm" data-testid="not-found">
      <Title order={1}>404</Title>
      <Text c="dimmed">{t('errors.pageNotFound')}</Text>
      <Button component={Link} to="/" variant="light">
        {t('nav.dashboard')}
      </Button>
    </Stack>
  );
}

/** Route-level error (e.g. a guard could not load the profile); retry re-runs the route. */
export function RouteError({ reset }: { reset?: () => void }) {
  const { t } = useTranslation();
  const router = useRouter();
  return (
    <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t('common.loadError')} m="md">
      <Button
        size="xs"
        variant="light"
        color="red"
        onClick={() => {
          reset?.();
          void router.invalidate();
        }}
      >
        {t('common.retry')}
      </Button>
    </Alert>
  );
}
