import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { EdgeServerCreated } from '../../api/types';
import './texts';

/** The new edge's key, shown this once: copy it into the edge's nginx config (X-Edge-Key). */
export function ServerKey({ server, onDone }: { server: EdgeServerCreated; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="server-key-panel">
      <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={t('servers.key.warningTitle')}>
        {t('servers.key.warning')}
      </Alert>
      <Text size="sm">{t('servers.key.label', { name: server.name })}</Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code fz="sm" p="xs" style={{ wordBreak: 'break-all', flex: 1 }} data-testid="server-key">
          {server.key}
        </Code>
        <CopyButton value={server.key}>
          {({ copied, copy }) => (
            <Button size="compact-sm" variant="light" onClick={copy} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />} data-testid="server-key-copy">
              {copied ? t('servers.key.copied') : t('servers.key.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="xs" c="dimmed">
        {t('servers.key.howTo')}
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone} data-testid="server-key-done">
          {t('servers.key.done')}
        </Button>
      </Group>
    </Stack>
  );
}
