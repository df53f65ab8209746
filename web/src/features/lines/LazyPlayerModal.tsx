import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { ErrorAlert } from '../../components/basic/ErrorAlert';
import { IconDeviceTv } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useComplements } from '../../api/complements';
import { formatNumber } from '../../lib/format';
import { useActivateLazyPlayer } from './api';
import { lazyPlayerCost, lazyPlayerErrorText, macError } from './lazyPlayer';
import type { Line } from '../../api/types';
import './texts';

/** Confirm dialog of the Lazy Player activation: the MAC address, the estimated charge, then the call. */
export function LazyPlayerModal({ line, opened, onClose }: { line: Line; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const complements = useComplements();
  // the MAC's error shows once the field is left or the form sent
  const form = useForm({ initialValues: { mac: '' }, validate: { mac: (v) => macError(v) }, validateInputOnBlur: true });
  const activate = useActivateLazyPlayer(); // a retry with the same MAC reuses its key: one charge
  const failure = activate.isError ? lazyPlayerErrorText(activate.error) : null;
  const monthly = Number(complements.data?.settings.lazy_player_monthly_credits ?? '1');
  const estimate = lazyPlayerCost(line.exp_date, Math.floor(Date.now() / 1000), Number.isFinite(monthly) ? monthly : 1);

  const submit = form.onSubmit(async ({ mac }) => {
    const res = await activate.mutateAsync({ id: line.id, mac: mac.trim() });
    notifySuccess(t('lazyPlayer.success', { amount: formatNumber(res.total_charged) }));
    onClose();
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t('lazyPlayer.title', { username: line.username })} centered data-testid="lazy-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('lazyPlayer.confirm', { username: line.username })}</Text>
          <TextInput
            label={t('lazyPlayer.mac')}
            placeholder="00:1A:2B:3C:4D:5E"
            withAsterisk
            {...form.getInputProps('mac')}
            autoComplete="off"
            data-autofocus
            data-testid="lazy-mac"
          />
          <Alert color="blue" variant="light" data-testid="lazy-estimate">
            {t('lazyPlayer.estimate', { amount: formatNumber(estimate) })}
          </Alert>
          {failure && (
<ErrorAlert testId="lazy-error">{failure}</ErrorAlert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={activate.isPending} leftSection={<IconDeviceTv size={18} />} data-testid="lazy-submit">
              {t('lazyPlayer.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
