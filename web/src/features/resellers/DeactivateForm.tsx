import { Alert, Button, Checkbox, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import type { Reseller, SearchOption } from '../../api/types';
import { Stat } from '../../components/Stat';
import { ResellerPicker } from '../../components/ResellerPicker';
import { useDeactivate } from './api';
import { formatNumber } from '../../lib/format';
import './texts';

/** The deactivate dialog's form (DeactivateModal): loaded when the dialog first opens. */
export default function DeactivateForm({ reseller, onClose }: { reseller: Reseller; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm({ initialValues: { transferAll: false, target: null as SearchOption | null } });
  const { transferAll, target } = form.values;
  const deactivate = useDeactivate();
  const targetId = target ? Number(target.value) : 0;
  const canConfirm = transferAll && Number.isInteger(targetId) && targetId >= 1 && targetId !== reseller.id;

  const confirm = form.onSubmit(async () => {
    if (!canConfirm || !target) return;
    try {
      const res = await deactivate.mutateAsync({ id: reseller.id, targetId });
      notifySuccess(t('resellers.deactivate.done', { username: reseller.username, target: target.label, credits: formatNumber(res.credits_moved) }));
      onClose();
    } catch (e) {
      // the target field says why it was refused (the client has toasted the error)
      if (!isApiError(e)) throw e;
      if (e.code === 'VALIDATION' && e.field === 'target_id') form.setFieldError('target', t('resellers.deactivate.invalidTarget'));
      else if (e.status === 404 && e.message.startsWith('Target')) form.setFieldError('target', t('resellers.deactivate.targetGone'));
    }
  });

  return (
    <form onSubmit={confirm} noValidate>
      <Stack gap="md" data-testid="deactivate-modal">
        <Text size="sm">
          {t('resellers.deactivate.intro')} <b data-testid="deactivate-username">{reseller.username}</b>
        </Text>
        <SimpleGrid cols={3} spacing="sm">
          <Stat label={t('resellers.deactivate.subResellers')} value={reseller.sub_resellers_count} testId="deactivate-sub-count" />
          <Stat label={t('resellers.deactivate.clients')} value={reseller.clients_count} testId="deactivate-client-count" />
          <Stat label={t('resellers.deactivate.credits')} value={formatNumber(reseller.credits)} />
        </SimpleGrid>
        <Checkbox
          label={t('resellers.deactivate.transferAll')}
          description={t('resellers.deactivate.transferAllHint')}
          {...form.getInputProps('transferAll', { type: 'checkbox' })}
          data-testid="deactivate-transfer-all"
        />
        {transferAll && (
          <ResellerPicker
            label={t('resellers.deactivate.target')}
            value={target}
            onChange={(o) => form.setFieldValue('target', o)}
            error={form.errors.target}
            excludeIds={[reseller.id]}
            testId="deactivate-target"
          />
        )}
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} p="xs">
          <Text size="xs">{t('resellers.deactivate.warning')}</Text>
        </Alert>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} data-testid="deactivate-cancel">
            {t('common.cancel')}
          </Button>
          <Button color="red" disabled={!canConfirm} loading={deactivate.isPending} type="submit" data-testid="deactivate-confirm">
            {t('resellers.deactivate.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
