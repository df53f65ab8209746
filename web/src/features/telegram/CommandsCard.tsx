import { Code, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format';
import './texts';

/** What the bot answers: the customers' commands, and the account's own /saldo. */
export function CommandsCard({ linkedChats }: { linkedChats: number }) {
  const { t } = useTranslation();
  const customers: [string, string][] = [
    ['/start', t('telegram.commands.start')],
    [t('telegram.commands.login'), t('telegram.commands.loginHint')],
    ['/status', t('telegram.commands.status')],
    ['/renovar', t('telegram.commands.renew')],
    ['/teste', t('telegram.commands.trial')],
    ['/sair', t('telegram.commands.logout')],
  ];
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-testid="telegram-commands">
      <Stack gap="sm">
        <Title order={2} size="h5">
          {t('telegram.commands.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('telegram.commands.help')}
        </Text>
        <Commands items={customers} />
        <Text size="sm">{t('telegram.commands.owner')}</Text>
        <Commands items={[['/saldo', t('telegram.commands.balance')]]} />
        <Text size="xs" c="dimmed" data-testid="telegram-linked-chats">
          {t('telegram.commands.linkedChats', { n: formatNumber(linkedChats) })}
        </Text>
      </Stack>
    </Paper>
  );
}

function Commands({ items }: { items: [string, string][] }) {
  return (
    <List size="sm" spacing={6} listStyleType="none" styles={{ root: { paddingInlineStart: 0 } }}>
      {items.map(([command, what]) => (
        <List.Item key={command}>
          <span>
            <Code>{command}</Code> — {what}
          </span>
        </List.Item>
      ))}
    </List>
  );
}
