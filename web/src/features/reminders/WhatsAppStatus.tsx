import { Badge, Button, Group, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useWhatsAppCheck } from './api';
import { failureText } from './failureText';
import './texts';

/**
 * The WhatsApp card's heading and badge: "Pronto" only when the gateway answered the check the
 * server makes on demand (on load and from "Testar conexão"); "Configurado" until it does, "Sem
 * resposta" with the reason when it did not.
 */
export function WhatsAppStatus({ configured }: { configured: boolean }) {
  const { t } = useTranslation();
  const check = useWhatsAppCheck(configured);
  const failure = check.data?.failure;
  const [color, label] = !configured
    ? ['gray', t('reminders.notReady')]
    : check.isFetching || !check.data
      ? ['blue', t('reminders.configured')]
      : check.data.ok
        ? ['green', t('reminders.ready')]
        : ['red', t('reminders.noAnswer')];
  return (
    <>
      <Group justify="space-between">
        <Title order={2} size="h5">
          {t('reminders.whatsappTitle')}
        </Title>
        <Group gap="xs">
          {configured && (
            <Button variant="subtle" size="compact-xs" loading={check.isFetching} onClick={() => void check.refetch()} data-testid="reminders-whatsapp-check">
              {t('reminders.checkConnection')}
            </Button>
          )}
          <Badge size="sm" variant="light" color={color} data-testid="reminders-whatsapp-status">
            {label}
          </Badge>
        </Group>
      </Group>
      {configured && !check.isFetching && failure && (
        <Text size="xs" c="red" data-testid="reminders-whatsapp-failure">
          {failureText(t, 'whatsapp', failure)}
        </Text>
      )}
    </>
  );
}
