import { Button, Code, CopyButton, Group, Image, Stack, Text, TextInput } from '@mantine/core';
import { errorText } from '../../lib/errors';
import { IconCheck, IconCopy, IconShieldCheck } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEnableTwoFactor, useStartSetup } from './api';
import { ErrorAlert } from '../../components/basic/ErrorAlert';

const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** Enrolment: a new secret as a QR code and as text, confirmed by a first code from the app. */
export function EnrolForm({ onEnabled }: { onEnabled: (recoveryCodes: string[]) => void }) {
  const { t } = useTranslation();
  const setup = useStartSetup();
  const enable = useEnableTwoFactor();
  const form = useForm({ initialValues: { code: '' }, validate: { code: (v) => (/^\d{6}$/.test(v) ? null : t('twoFactor.enrol.codeFormat')) } });
  const [error, setError] = useState<string | null>(null);

  const confirm = form.onSubmit(async ({ code }) => {
    setError(null);
    try {
      onEnabled((await enable.mutateAsync(code)).recovery_codes);
    } catch (err) {
      // the call is silent: its error shows in place (and the code is typed again)
      setError(errorText(err));
      form.setFieldValue('code', '');
    }
  });

  if (!setup.data) {
    return (
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t('twoFactor.enrol.intro')}</Text>
        <Button leftSection={<IconShieldCheck size={18} />} loading={setup.isPending} onClick={() => void setup.mutateAsync()} data-testid="twofactor-start">
          {t('twoFactor.enrol.start')}
        </Button>
      </Stack>
    );
  }

  const { qr, secret } = setup.data;
  return (
    <form onSubmit={confirm} noValidate>
      <Stack gap="md">
        <Text size="sm">{t('twoFactor.enrol.scan')}</Text>
        <Image src={qr} alt={t('twoFactor.enrol.qrAlt')} w={200} h={200} fit="contain" bg="white" p={4} data-testid="twofactor-qr" />
        <div>
          <Text size="sm" c="dimmed">
            {t('twoFactor.enrol.manual')}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Code fz="md" data-testid="twofactor-secret" style={{ wordBreak: 'break-all' }}>
              {grouped(secret)}
            </Code>
            <CopyButton value={secret}>
              {({ copied, copy }) => (
                <Button size="compact-sm" variant="subtle" onClick={copy} leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}>
                  {copied ? t('twoFactor.copied') : t('twoFactor.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
        </div>
        {error && (
          <ErrorAlert testId="twofactor-error">{error}</ErrorAlert>
        )}
        <Group align="flex-end" gap="sm">
          <TextInput
            label={t('twoFactor.enrol.codeLabel')}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            w={160}
            value={form.values.code}
            onChange={(e) => form.setFieldValue('code', e.currentTarget.value.replace(/\D/g, ''))}
            error={form.errors.code}
            data-testid="twofactor-code"
          />
          <Button type="submit" loading={enable.isPending} data-testid="twofactor-confirm">
            {t('twoFactor.enrol.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
