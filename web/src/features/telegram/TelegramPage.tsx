import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { PageHeader } from '../../components/PageHeader';
import { useTelegramSettings } from './api';
import { BotCard } from './BotCard';
import { ChatCard } from './ChatCard';
import { CommandsCard } from './CommandsCard';
import { botFormKey } from './form';
import './texts';

/** /telegram — the account's own Telegram bot: its token and on/off, the account's news chat, what customers can ask it. */
export function TelegramPage() {
  const { t } = useTranslation();
  const settings = useTelegramSettings();
  return (
    <Stack gap="sm">
      <PageHeader title={t('telegram.title')} />
      <Text size="sm" c="dimmed">
        {t('telegram.help')}
      </Text>
      {settings.isError && <LoadErrorAlert onRetry={() => settings.refetch()} />}
      {settings.data && (
        <>
          <BotCard key={botFormKey(settings.data)} saved={settings.data} />
          <ChatCard />
          <CommandsCard linkedChats={settings.data.linked_chats} />
        </>
      )}
    </Stack>
  );
}
