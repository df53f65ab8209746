import { Button, Group, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import { type Channel, useSendTest } from './api';
import './texts';

/** "Send a test to ..." for one channel, through the saved settings (inside the page's form: no <form> of its own). */
export function ChannelTest({ channel, ready }: { channel: Channel; ready: boolean }) {
  const { t } = useTranslation();
  const form = useForm({ initialValues: { to: '' } });
  const to = form.values.to.trim();
  const send = useSendTest();
  const sendTest = async () => {
    await send.mutateAsync({ channel, to });
    notifySuccess(t('reminders.testSent'));
  };
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput
        style={{ flex: 1 }}
        label={t('reminders.testTo')}
        description={ready ? undefined : t('reminders.saveFirst')}
        placeholder={t(channel === 'whatsapp' ? 'reminders.testWhatsappPlaceholder' : 'reminders.testEmailPlaceholder')}
        inputMode={channel === 'whatsapp' ? 'tel' : 'email'}
        {...form.getInputProps('to')}
        maxLength={120}
        data-testid={`reminders-test-${channel}-to`}
      />
      <Button
        variant="light"
        disabled={!ready || !to}
        loading={send.isPending}
        onClick={() => void sendTest()}
        data-testid={`reminders-test-${channel}`}
      >
        {t('reminders.sendTest')}
      </Button>
    </Group>
  );
}
