import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';

export interface SecretShownOnceProps {
  secret: string;
  /** the page's own texts: a warning (title and text), what the secret is, how to use it, the buttons */
  texts: { warningTitle: string; warning: string; label: string; howTo: string; copy: string; copied: string; done: string };
  /** test ids of the panel, the secret, the copy and the done buttons */
  testIds: { panel: string; secret: string; copy: string; done: string };
  onDone: () => void;
}

/** A secret the server shows this once (an edge's key, an API key), with a copy button. */
export function SecretShownOnce({ secret, texts, testIds, onDone }: SecretShownOnceProps) {
  return (
    <Stack gap="sm" data-testid={testIds.panel}>
      <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={texts.warningTitle}>
        {texts.warning}
      </Alert>
      <Text size="sm">{texts.label}</Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code fz="sm" p="xs" style={{ wordBreak: 'break-all', flex: 1 }} data-testid={testIds.secret}>
          {secret}
        </Code>
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button size="compact-sm" variant="light" onClick={copy} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />} data-testid={testIds.copy}>
              {copied ? texts.copied : texts.copy}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="xs" c="dimmed">
        {texts.howTo}
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone} data-testid={testIds.done}>
          {texts.done}
        </Button>
      </Group>
    </Stack>
  );
}
