import { Button, Code, CopyButton, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconBrandTelegram } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { TelegramLinkCode } from './api';
import './texts';

/** A link code being waited for: the code, the t.me link that sends it, `/start <code>` to copy, until when it is valid. */
export function LinkCode({ code }: { code: TelegramLinkCode }) {
  const { t } = useTranslation();
  const command = `/start ${code.code}`;
  return (
    <Paper bg="var(--mantine-color-default-hover)" p="sm" radius="md" data-testid="telegram-link-code-box">
      <Stack gap="xs">
        <div>
          <Text size="sm" fw={500}>
            {t('telegram.chat.code')}
          </Text>
          <Text ff="monospace" fz="xl" fw={700} style={{ overflowWrap: 'anywhere' }} data-testid="telegram-link-code">
            {code.code}
          </Text>
        </div>
        <Button component="a" href={code.link} target="_blank" rel="noopener noreferrer" leftSection={<IconBrandTelegram size={18} aria-hidden />} fullWidth data-testid="telegram-link-open">
          {t('telegram.chat.open')}
        </Button>
        <Text size="sm">{t('telegram.chat.codeHelp')}</Text>
        <Group gap="xs" wrap="nowrap">
          <Code style={{ overflowWrap: 'anywhere', flex: 1 }} data-testid="telegram-link-command">
            {command}
          </Code>
          <CopyButton value={command}>
            {({ copied, copy }) => (
              <Button size="compact-xs" variant="light" onClick={copy} data-testid="telegram-link-copy">
                {copied ? t('telegram.chat.copied') : t('telegram.chat.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Text size="xs" c="dimmed" data-testid="telegram-link-code-expires">
          {t('telegram.chat.expires', { time: dayjs.unix(code.expires_at).format('HH:mm') })}
        </Text>
        <Group gap={6} wrap="nowrap">
          <Loader size="xs" aria-hidden />
          <Text size="xs" c="dimmed">
            {t('telegram.chat.waiting')}
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
}
