import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import { ErrorAlert } from '../../components/basic/ErrorAlert';
import { type Channel, useSendTest } from './api';
import { failureText } from './failureText';
import './texts';

/**
 * "Send a test to ..." for one channel, through the saved settings (inside the page's form: no
 * <form> of its own); a gateway's failure stays beside it until the address changes.
 */
export function ChannelTest({ channel, ready }: { channel: Channel; ready: boolean }) {
  const { t } = useTranslation();
  const form = useForm({ initialValues: { to: '' } });
  const to = form.values.to.trim();
  const send = useSendTest();
  const failure = send.data?.failure;
  const sendTest = async () => {
    const out = await send.mutateAsync({ channel, to });
    if (out.ok) notifySuccess(t('reminders.testSent'));
  };
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          label={t('reminders.testTo')}
          description={ready ? undefined : t('reminders.saveFirst')}
          placeholder={t(channel === 'whatsapp' ? 'reminders.testWhatsappPlaceholder' : 'reminders.testEmailPlaceholder')}
          inputMode={channel === 'whatsapp' ? 'tel' : 'email'}
          value={form.values.to}
          onChange={(e) => {
            form.setFieldValue('to', e.currentTarget.value);
            send.reset(); // the failure shown was for the previous address
          }}
          maxLength={120}
          data-testid={`reminders-test-${channel}-to`}
        />
        <Button variant="light" disabled={!ready || !to} loading={send.isPending} onClick={() => void sendTest()} data-testid={`reminders-test-${channel}`}>
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
