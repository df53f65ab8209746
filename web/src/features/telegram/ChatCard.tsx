import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import { confirmDialog } from '../../components/confirm';
import { useNowSec } from '../../lib/useNowSec';
import { type TelegramLinkCode, type TelegramSettings, useLinkCode, useTelegramSettings, useUnlinkOwnerChat } from './api';
import { LinkCode } from './LinkCode';
import './texts';

/** Can the account's chat be linked: a working bot that is on. */
const botReady = (s: TelegramSettings) => s.bot_token_set && s.enabled && !s.revoked && s.bot_username !== null;

/**
 * "Seu chat": the account's own chat, where its bot sends the business news. Not linked: a one-time
 * code to send the bot, and the settings asked every 3 s while it is shown, until the chat is linked.
 */
export function ChatCard() {
  const { t } = useTranslation();
  const [code, setCode] = useState<TelegramLinkCode | undefined>();
  const now = useNowSec();
  const expired = code !== undefined && now >= code.expires_at;
  const settings = useTelegramSettings(code !== undefined && !expired);
  const linkCode = useLinkCode();
  const unlink = useUnlinkOwnerChat();
  const linked = settings.data?.owner_chat_linked === true;

  // the bot got the code: the chat is linked, the code is spent
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the chat becomes linked
  useEffect(() => {
    if (!linked || code === undefined) return;
    setCode(undefined);
    notifySuccess(t('telegram.chat.linkedNow'));
  }, [linked]);

  const s = settings.data;
  if (!s) return null;

  const generate = async () => {
    setCode(await linkCode.mutateAsync());
  };
  const onUnlink = async () => {
    const sure = await confirmDialog({ title: t('telegram.chat.unlinkTitle'), message: t('telegram.chat.unlinkMessage'), confirmLabel: t('telegram.chat.unlink'), danger: true });
    if (!sure) return;
    await unlink.mutateAsync();
    notifySuccess(t('telegram.chat.unlinked'));
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h5">
            {t('telegram.chat.title')}
          </Title>
          {linked ? (
            <Badge size="sm" variant="light" color="green" style={{ flexShrink: 0 }} data-testid="telegram-chat-linked">
              {t('telegram.chat.linked')}
            </Badge>
          ) : (
            <Badge size="sm" variant="light" color="gray" style={{ flexShrink: 0 }} data-testid="telegram-chat-not-linked">
              {t('telegram.chat.notLinked')}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {t('telegram.chat.help')}
        </Text>
        {linked ? (
          <Group justify="flex-end">
            <Button variant="subtle" color="red" loading={unlink.isPending} onClick={() => void onUnlink()} data-testid="telegram-chat-unlink">
              {t('telegram.chat.unlink')}
            </Button>
          </Group>
        ) : !botReady(s) ? (
          <Text size="sm" data-testid="telegram-chat-needs-bot">
            {t('telegram.chat.needsBot')}
          </Text>
        ) : (
          <>
            {code && !expired && <LinkCode code={code} />}
            {expired && (
              <Text size="sm" c="red" data-testid="telegram-link-code-expired">
                {t('telegram.chat.expired')}
              </Text>
            )}
            <Button variant={code && !expired ? 'default' : 'filled'} loading={linkCode.isPending} onClick={() => void generate()} data-testid="telegram-link-code-button">
              {code ? t('telegram.chat.generateAgain') : t('telegram.chat.generate')}
            </Button>
          </>
        )}
      </Stack>
    </Paper>
  );
}
