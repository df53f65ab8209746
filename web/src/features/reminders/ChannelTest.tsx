import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { alreadyShown, notifySuccess } from '../../api/notify';
import { ErrorAlert } from '../../components/basic/ErrorAlert';
import { type Channel, useSendTest } from './api';
import { failureText } from './failureText';
import './texts';

/** "Send a test to ..." for one channel, through the saved settings; a gateway's failure stays beside it until the address changes. */
export function ChannelTest({ channel, ready }: { channel: Channel; ready: boolean }) {
  const { t } = useTranslation();
  const [to, setTo] = useState('');
  const send = useSendTest();
  const failure = send.data?.failure;
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          label={t('reminders.testTo')}
          description={ready ? undefined : t('reminders.saveFirst')}
          placeholder={t(channel === 'whatsapp' ? 'reminders.testWhatsappPlaceholder' : 'reminders.testEmailPlaceholder')}
          inputMode={channel === 'whatsapp' ? 'tel' : 'email'}
          value={to}
          onChange={(e) => {
            setTo(e.currentTarget.value);
            send.reset();
          }}
          maxLength={120}
          data-testid={`reminders-test-${channel}-to`}
        />
        <Button
          variant="light"
          disabled={!ready || !to.trim()}
          loading={send.isPending}
          onClick={() => void send.mutateAsync({ channel, to: to.trim() }).then((out) => out.ok && notifySuccess(t('reminders.testSent')), alreadyShown)}
          data-testid={`reminders-test-${channel}`}
        >
          {t('reminders.sendTest')}
        </Button>
      </Group>
      {failure && (
        <ErrorAlert title={t('reminders.testFailed')} testId={`reminders-test-${channel}-failure`}>
          {failureText(t, channel, failure)}
        </ErrorAlert>
      )}
    </Stack>
  );
}
