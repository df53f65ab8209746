import { Alert, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { notifySuccess, showError } from '../../api/notify';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '../../api/client';
import type { P2pUser } from '../../api/types';
import { formatDateTime } from '../../lib/format';
import { reloadProfile } from '../../api/profile';
import { renewP2pUser, replaceP2pUser } from './api';

export const MAX_RENEW_MONTHS = 12;

/** Renew a P2P account by 0–12 months at 1 credit per month (submit disabled at 0). */
export function P2pRenewModal({ user, onClose }: { user: P2pUser; onClose: () => void }) {
  const { t } = useTranslation();
  const [months, setMonths] = useState<number | string>(0);
  const [busy, setBusy] = useState(false);
  // One key per renewal intent: a retry after a lost answer cannot charge twice; another amount is another intent.
  const [key, setKey] = useState(newIdempotencyKey);
  const n = typeof months === 'number' ? months : Number.parseInt(months, 10) || 0;
  const valid = Number.isInteger(n) && n >= 1 && n <= MAX_RENEW_MONTHS;

  const submit = async () => {
    if (!valid) return;
    setBusy(true);
    try {
      replaceP2pUser(await renewP2pUser(user.id, n, key));
      void reloadProfile();
      notifySuccess(t('p2p.renew.success'));
      onClose();
    } catch (e) {
      showError(e, 'p2p', 'users');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('p2p.renew.title', { email: user.email })} centered data-testid="p2p-renew-dialog">
      <Stack gap="sm">
        <Text size="sm">
          {t('p2p.columns.expiry')}: <b>{formatDateTime(user.expiracao)}</b>
        </Text>
        <NumberInput
          label={t('p2p.renew.months')}
          description={t('p2p.renew.perMonth')}
          min={0}
          max={MAX_RENEW_MONTHS}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="strict"
          value={months}
          onChange={(v) => {
            setMonths(v);
            setKey(newIdempotencyKey());
          }}
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
          <Button onClick={() => void submit()} disabled={!valid} loading={busy} data-testid="p2p-renew-submit">
            {t('p2p.renew.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
