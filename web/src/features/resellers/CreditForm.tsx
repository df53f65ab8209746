import { Button, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useChangeCredits } from './api';
import { formatNumber } from '../../lib/format';
import type { Reseller } from '../../api/types';
import './texts';
import { NumberField } from '../../components/NumberField';

const MAX_AMOUNT = 1_000_000;

/** Integer value of the amount field ('' or '-' while typing count as 0). */
function toAmount(v: string | number): number {
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? Math.trunc(n) : 0;
}

/** The credit form inside CreditModal: loaded when the modal first opens (its number input is not part of the list's first load). */
export default function CreditForm({ reseller, isAdmin, onClose }: { reseller: Reseller; isAdmin: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm<{ raw: string | number }>({ initialValues: { raw: '' } });
  const { raw } = form.values;
  const change = useChangeCredits(); // a retry of the same value (after a lost answer) reuses its key
  const pendingSign = change.isPending ? Math.sign(change.variables.value) : 0;

  const amount = toAmount(raw);
  const current = reseller.credits;
  const preview = Math.max(0, current + amount);

  const submit = async (value: number) => {
    if (value === 0 || change.isPending) return;
    await change.mutateAsync({ id: reseller.id, value });
    notifySuccess(
      value > 0
        ? t('resellers.credits.added', { amount: formatNumber(value), username: reseller.username })
        : t('resellers.credits.removed', { amount: formatNumber(-value), username: reseller.username }),
    );
    onClose();
  };

  return (
    <form onSubmit={form.onSubmit(() => (amount > 0 ? submit(amount) : undefined))}>
      <Stack gap="md">
        <Text size="sm">
          {t('resellers.credits.for')} <b data-testid="credit-username">{reseller.username}</b>
        </Text>
        <SimpleGrid cols={2} spacing="sm">
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('resellers.credits.current')}
            </Text>
            <Text fw={700} size="lg" data-testid="credit-current">
              {formatNumber(current)}
            </Text>
          </Stack>
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('resellers.credits.new')}
            </Text>
            <Text fw={700} size="lg" c={amount > 0 ? 'teal' : amount < 0 ? 'red' : undefined} data-testid="credit-new">
              {formatNumber(preview)}
            </Text>
          </Stack>
        </SimpleGrid>
        <NumberField
          label={t('resellers.credits.amount')}
          description={isAdmin ? t('resellers.credits.amountHintAdmin') : t('resellers.credits.amountHint')}
          {...form.getInputProps('raw')}
          allowDecimal={false}
          allowNegative={isAdmin}
          min={isAdmin ? undefined : 0}
          max={MAX_AMOUNT}
          clampBehavior="strict"
          thousandSeparator="."
          decimalSeparator=","
          inputMode="numeric"
          data-autofocus
          data-testid="credit-amount"
        />
        <SimpleGrid cols={isAdmin ? 3 : 2} spacing="xs">
          <Button variant="default" px="xs" onClick={onClose} data-testid="credit-close">
            {t('common.close')}
          </Button>
          {isAdmin && (
            <Button
              color="red"
              variant="light"
              px="xs"
              leftSection={<IconMinus size={16} />}
              disabled={amount === 0 || current === 0}
              loading={pendingSign < 0}
              onClick={() => void submit(amount > 0 ? -amount : amount)}
              data-testid="credit-remove"
            >
              {t('resellers.credits.remove')}
            </Button>
          )}
          <Button
            type="submit"
            px="xs"
            leftSection={<IconPlus size={16} />}
            disabled={amount <= 0}
            loading={pendingSign > 0}
            data-testid="credit-add"
          >
            {t('resellers.credits.add')}
          </Button>
        </SimpleGrid>
      </Stack>
    </form>
  );
}
