import { Alert, Badge, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconShieldExclamation } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { useTwoFactorStatus } from './api';
import { DisableForm } from './DisableForm';
import { EnrolForm } from './EnrolForm';
import { RecoveryCodes } from './RecoveryCodes';

/** /profile/security — two-factor sign-in of the signed-in account: enrol, recovery codes, turn off. */
export function SecurityPage() {
  const { t } = useTranslation();
  const status = useTwoFactorStatus();
  const [freshCodes, setFreshCodes] = useState<string[] | null>(null);

  return (
    <>
      <PageHeader title={t('twoFactor.title')} />
      <Card withBorder radius="md" p="lg" maw={720}>
        <Stack gap="md">
          <Group justify="space-between" wrap="nowrap">
            <Title order={2} size="h4">
              {t('twoFactor.cardTitle')}
            </Title>
            {status.data && (
              <Badge color={status.data.enabled ? 'teal' : 'gray'} variant="light" data-testid="twofactor-status">
                {status.data.enabled ? t('twoFactor.on') : t('twoFactor.off')}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {t('twoFactor.description')}
          </Text>
          {status.data?.required && !status.data.enabled && (
            <Alert color="orange" icon={<IconShieldExclamation size={18} />} data-testid="twofactor-required">
              {t('twoFactor.requiredNotice')}
            </Alert>
          )}
          {!status.data ? (
            <Center py="md">
              <Loader size="sm" />
            </Center>
          ) : freshCodes ? (
            <RecoveryCodes codes={freshCodes} onDone={() => setFreshCodes(null)} />
          ) : status.data.enabled ? (
            <Stack gap="md">
              <Text size="sm" data-testid="twofactor-codes-left">
                {t('twoFactor.codesLeft', { count: status.data.recovery_codes_left })}
              </Text>
              <Title order={3} size="h5">
                {t('twoFactor.disable.title')}
              </Title>
              <DisableForm />
            </Stack>
          ) : (
            <EnrolForm onEnabled={setFreshCodes} />
          )}
        </Stack>
      </Card>
    </>
  );
}
