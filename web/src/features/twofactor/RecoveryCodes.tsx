import { Alert, Button, Code, CopyButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The recovery codes, right after enrolment: shown this once, with a copy button. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid="twofactor-recovery">
      <Alert color="yellow" icon={<IconKey size={18} />} title={t('twoFactor.recovery.title')}>
        {t('twoFactor.recovery.hint')}
      </Alert>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" data-testid="twofactor-recovery-codes">
        {codes.map((c) => (
          <Code key={c} fz="md" ta="center" py={6}>
            {c}
          </Code>
        ))}
      </SimpleGrid>
      <Group justify="space-between">
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button variant="light" color={copied ? 'teal' : undefined} leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />} onClick={copy} data-testid="twofactor-recovery-copy">
              {copied ? t('twoFactor.copied') : t('twoFactor.recovery.copy')}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone} data-testid="twofactor-recovery-done">
          {t('twoFactor.recovery.done')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('twoFactor.recovery.once')}
      </Text>
    </Stack>
  );
}
