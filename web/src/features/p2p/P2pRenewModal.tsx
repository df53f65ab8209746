import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { P2pUser } from '../../api/types';
import { formatDateTime } from '../../lib/format';
import { useRenewP2pUser } from './api';
import { NumberField } from '../../components/NumberField';

export const MAX_RENEW_MONTHS = 12;

/** Renew a P2P account by 0–12 months at 1 credit per month (submit disabled at 0). */
export function P2pRenewModal({ user, onClose }: { user: P2pUser; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm<{ months: number | string }>({ initialValues: { months: 0 } });
  const months = form.values.months;
  // One key per renewal intent (account and months): a retry after a lost answer cannot charge twice; another amount is another intent.
  const renew = useRenewP2pUser();
  const n = typeof months === 'number' ? months : Number.parseInt(months, 10) || 0;
  const valid = Number.isInteger(n) && n >= 1 && n <= MAX_RENEW_MONTHS;

  const submit = async () => {
    if (!valid) return;
    await renew.mutateAsync({ id: user.id, months: n });
    notifySuccess(t('p2p.renew.success'));
    onClose();
  };

  return (
    <Modal opened onClose={onClose} title={t('p2p.renew.title', { email: user.email })} centered data-testid="p2p-renew-dialog">
      <Stack gap="sm">
        <Text size="sm">
          {t('p2p.columns.expiry')}: <b>{formatDateTime(user.expiracao)}</b>
        </Text>
        <NumberField
          label={t('p2p.renew.months')}
          description={t('p2p.renew.perMonth')}
          min={0}
          max={MAX_RENEW_MONTHS}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="strict"
          {...form.getInputProps('months')}
          data-testid="p2p-renew-months"
        />
        {valid && (
          <Alert color="blue" variant="light" data-testid="p2p-renew-cost">
            {t('users.form.cost', { count: n })}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void submit()} disabled={!valid} loading={renew.isPending} data-testid="p2p-renew-submit">
            {t('p2p.renew.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export default P2pRenewModal;
