import { Alert, Anchor, Badge, Button, Group, List, Paper, PasswordInput, Stack, Switch, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { notifySuccess } from '../../api/notify';
import { confirmDialog } from '../../components/confirm';
import { NumberField } from '../../components/NumberField';
import { showFormError } from '../../lib/formErrors';
import { type TelegramSettings, useDisconnectBot, useSaveTelegramSettings } from './api';
import { type BotValues, botBody, botValues, isLowCredits, looksLikeToken, MAX_LOW_CREDITS } from './form';
import './texts';

const BOT_FATHER = 'https://t.me/BotFather';

/** The "Bot" card: how to get a token, the token (write-only), on/off, the low-credits warning, disconnect. */
export function BotCard({ saved }: { saved: TelegramSettings }) {
  const { t } = useTranslation();
  const save = useSaveTelegramSettings();
  const disconnect = useDisconnectBot();
  const form = useForm<BotValues>({
    initialValues: botValues(saved),
    validate: {
      bot_token: (v, values) => {
        if (v.trim() === '') return values.enabled && !saved.bot_token_set ? t('telegram.bot.tokenRequired') : null;
        return looksLikeToken(v) ? null : t('telegram.bot.tokenInvalid');
      },
      credits_low_threshold: (v) => (isLowCredits(v) ? null : t('telegram.bot.lowCreditsInvalid')),
    },
  });

  const submit = form.onSubmit(async (v) => {
    try {
      await save.mutateAsync(botBody(v));
      form.setFieldValue('bot_token', '');
      notifySuccess(t('telegram.bot.saved'));
    } catch (e) {
      // under the token: Telegram refused it, or turning on needs one (`enabled`: REQUIRED_TO_ENABLE); anything else is toasted
      if (isApiError(e) && e.field === 'bot_token' && e.problem?.reason === 'INVALID_TOKEN') form.setFieldError('bot_token', t('telegram.bot.tokenRefused'));
      else showFormError(form, e, { fields: { enabled: 'bot_token' }, scopes: ['telegram'] });
    }
  });

  const onDisconnect = async () => {
    const sure = await confirmDialog({
      title: t('telegram.bot.disconnectTitle'),
      message: t('telegram.bot.disconnectMessage'),
      confirmLabel: t('telegram.bot.disconnect'),
      danger: true,
    });
    if (!sure) return;
    await disconnect.mutateAsync();
    notifySuccess(t('telegram.bot.disconnected'));
  };

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Group justify="space-between" wrap="nowrap">
            <Title order={2} size="h5">
              {t('telegram.bot.title')}
            </Title>
            <BotStatus saved={saved} />
          </Group>
          {!saved.public_url_configured && (
            <Alert color="orange" variant="light" data-testid="telegram-no-public-url">
              {t('telegram.bot.noPublicUrl')}
            </Alert>
          )}
          {saved.revoked && (
            <Alert color="red" variant="light" data-testid="telegram-revoked">
              {t('telegram.bot.revoked')}
            </Alert>
          )}
          {saved.bot_username && saved.bot_link && (
            <Group gap={6} wrap="wrap" data-testid="telegram-bot">
              <Text size="sm">{t('telegram.bot.yourBot')}:</Text>
              {saved.bot_name && (
                <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {saved.bot_name}
                </Text>
              )}
              <Anchor href={saved.bot_link} target="_blank" rel="noopener noreferrer" size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="telegram-bot-link">
                {`@${saved.bot_username}`}
              </Anchor>
            </Group>
          )}
          {(!saved.bot_token_set || saved.revoked) && <BotFatherSteps />}
          <PasswordInput
            label={t('telegram.bot.token')}
            description={saved.bot_token_set ? t('telegram.bot.tokenSavedHint') : t('telegram.bot.tokenHint')}
            placeholder={saved.bot_token_set ? t('telegram.bot.tokenSaved') : undefined}
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            data-testid="telegram-token"
            {...form.getInputProps('bot_token')}
          />
          <Switch label={t('telegram.bot.enabled')} description={t('telegram.bot.enabledHint')} data-testid="telegram-enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <NumberField
            label={t('telegram.bot.lowCredits')}
            description={t('telegram.bot.lowCreditsHint')}
            min={0}
            max={MAX_LOW_CREDITS}
            allowDecimal={false}
            allowNegative={false}
            inputMode="numeric"
            {...form.getInputProps('credits_low_threshold')}
            data-testid="telegram-low-credits"
          />
          <Group justify="flex-end" gap="xs">
            {saved.bot_token_set && (
              <Button variant="subtle" color="red" mr="auto" loading={disconnect.isPending} onClick={() => void onDisconnect()} data-testid="telegram-disconnect">
                {t('telegram.bot.disconnect')}
              </Button>
            )}
            <Button type="submit" loading={form.submitting} data-testid="telegram-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function BotStatus({ saved }: { saved: TelegramSettings }) {
  const { t } = useTranslation();
  const [color, label] = !saved.bot_token_set
    ? ['gray', t('telegram.bot.statusNone')]
    : saved.revoked
      ? ['red', t('telegram.bot.statusRevoked')]
      : saved.enabled
        ? ['green', t('telegram.bot.statusOn')]
        : ['gray', t('telegram.bot.statusOff')];
  return (
    <Badge size="sm" variant="light" color={color} style={{ flexShrink: 0 }} data-testid="telegram-bot-status">
      {label}
    </Badge>
  );
}

/** How to get a token from @BotFather (shown until a token works). */
function BotFatherSteps() {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <Text size="sm">{t('telegram.bot.intro')}</Text>
      <List type="ordered" size="sm" spacing={4}>
        <List.Item>{t('telegram.bot.step1')}</List.Item>
        <List.Item>{t('telegram.bot.step2')}</List.Item>
        <List.Item>{t('telegram.bot.step3')}</List.Item>
      </List>
      <Anchor href={BOT_FATHER} target="_blank" rel="noopener noreferrer" size="sm" data-testid="telegram-botfather-link">
        {t('telegram.bot.openBotFather')}
      </Anchor>
    </Stack>
  );
}
