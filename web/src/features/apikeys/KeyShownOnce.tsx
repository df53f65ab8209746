import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ApiKeyCreated } from '../../api/types';
import './texts';

/** The new key, shown this once, with a copy button. */
export function KeyShownOnce({ created, onDone }: { created: ApiKeyCreated; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="api-key-panel">
      <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={t('apiKeys.key.warningTitle')}>
        {t('apiKeys.key.warning')}
      </Alert>
      <Text size="sm">{t('apiKeys.key.label', { name: created.name })}</Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code fz="sm" p="xs" style={{ wordBreak: 'break-all', flex: 1 }} data-testid="api-key-secret">
          {created.key}
        </Code>
        <CopyButton value={created.key}>
          {({ copied, copy }) => (
            <Button size="compact-sm" variant="light" onClick={copy} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />} data-testid="api-key-copy">
              {copied ? t('apiKeys.key.copied') : t('apiKeys.key.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="xs" c="dimmed">
        {t('apiKeys.key.howTo')}
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone} data-testid="api-key-done">
          {t('apiKeys.key.done')}
        </Button>
      </Group>
    </Stack>
  );
}
