import { Alert, Button, Card, CopyButton, Group, Image, Loader, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useInterval } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../api/profile';
import { NumberField } from '../../components/NumberField';
import { errorText } from '../../lib/errors';
import { formatMoney, formatNumber } from '../../lib/format';
import { useBuyCredits, useCreditOffer, usePurchase } from './api';
import './texts';

/** "Comprar créditos": the parent's price, a number of credits, the PIX charge (QR + copy-paste code), followed until the credits arrive. */
export function BuyCredits({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const profile = useProfile();
  const offer = useCreditOffer(true);
  const buy = useBuyCredits();
  const form = useForm<{ credits: number | '' }>({ initialValues: { credits: '' } });
  const [purchaseId, setPurchaseId] = useState<number | undefined>();
  const purchase = usePurchase(purchaseId);

  if (offer.isPending) return <Loader size="sm" />;
  if (offer.error) return <Alert color="red" variant="light" data-testid="buy-credits-error">{errorText(offer.error, 'creditSales')}</Alert>;
  const o = offer.data;
  const balance = profile.data?.credits ?? 0;
  const header = (
    <Text size="sm" data-testid="buy-credits-balance">
      {t('creditSales.balance', { credits: formatNumber(balance) })}
    </Text>
  );
  if (!o.enabled) {
    return (
      <Stack gap="sm">
        {header}
        <Alert color="orange" variant="light" data-testid="buy-credits-not-offered">
          {t('creditSales.notOffered')}
        </Alert>
      </Stack>
    );
  }
  const p = purchase.data ?? buy.data;
  if (p) {
    if (p.status === 'applied') {
      return (
        <Stack gap="sm">
          <Alert color="green" variant="light" title={t('creditSales.applied')} data-testid="buy-credits-applied">
            {t('creditSales.appliedText', { credits: formatNumber(p.credits), balance: formatNumber(balance) })}
          </Alert>
          <Button onClick={onClose} data-testid="buy-credits-close">
            {t('creditSales.close')}
          </Button>
        </Stack>
      );
    }
    if (p.status === 'paid_awaiting_credits') return <Alert color="orange" variant="light" data-testid="buy-credits-awaiting">{t('creditSales.awaiting')}</Alert>;
    if (p.status !== 'pending') return <Alert color="red" variant="light" data-testid="buy-credits-ended">{t('creditSales.ended', { status: t(`creditSales.statuses.${p.status}`) })}</Alert>;
    return <PixCharge charge={p} />;
  }
  const credits = form.values.credits;
  const amount = typeof credits === 'number' ? credits * o.price_cents_per_credit : 0;
  const tooFew = typeof credits !== 'number' || credits < o.min_credits;
  const submit = form.onSubmit(async (v) => {
    if (typeof v.credits !== 'number' || v.credits < o.min_credits) return;
    try {
      setPurchaseId((await buy.mutateAsync({ credits: v.credits })).id);
    } catch {
      // shown below the field (buy.error); pressing again retries with the same key
    }
  });
  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="sm">
        {header}
        <Text size="sm" c="dimmed" data-testid="buy-credits-price">
          {t('creditSales.pricePerCredit', { price: formatMoney(o.price_cents_per_credit) })}
        </Text>
        <NumberField
          label={t('creditSales.credits')}
          description={t('creditSales.minCredits', { min: formatNumber(o.min_credits) })}
          min={o.min_credits}
          max={1_000_000}
          allowDecimal={false}
          allowNegative={false}
          inputMode="numeric"
          {...form.getInputProps('credits')}
          data-testid="buy-credits-amount"
        />
        <Text fw={700} size="lg" data-testid="buy-credits-total">
          {t('creditSales.total', { amount: formatMoney(amount) })}
        </Text>
        {buy.error != null && (
          <Alert color="red" variant="light" data-testid="buy-credits-error">
            {errorText(buy.error, 'creditSales')}
          </Alert>
        )}
        <Button type="submit" fullWidth disabled={tooFew} loading={buy.isPending} data-testid="buy-credits-submit">
          {t('creditSales.pay')}
        </Button>
      </Stack>
    </form>
  );
}

function PixCharge({ charge }: { charge: { amount_cents: number; qr_code: string | null; qr_code_base64: string | null; expires_at: number } }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(() => Math.max(0, charge.expires_at - Math.floor(Date.now() / 1000)));
  const tick = useInterval(() => setLeft(Math.max(0, charge.expires_at - Math.floor(Date.now() / 1000))), 1000);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the countdown starts once, with the card
  useEffect(() => {
    tick.start();
    return tick.stop;
  }, []);
  const mm = String(Math.floor(left / 60)).padStart(2, '0');
  const ss = String(left % 60).padStart(2, '0');
  return (
    <Card withBorder radius="md" p="md" data-testid="buy-credits-pix">
      <Stack gap="sm" align="center">
        <Text fw={700}>{t('creditSales.payWithPix', { amount: formatMoney(charge.amount_cents) })}</Text>
        {charge.qr_code_base64 && <Image src={`data:image/png;base64,${charge.qr_code_base64}`} alt={t('creditSales.qr')} w={220} h={220} data-testid="buy-credits-qr" />}
        <Text size="xs" c="dimmed" ta="center" style={{ overflowWrap: 'anywhere' }} data-testid="buy-credits-code">
          {charge.qr_code}
        </Text>
        {charge.qr_code && (
          <CopyButton value={charge.qr_code}>
            {({ copied, copy }) => (
              <Button fullWidth onClick={copy} color={copied ? 'teal' : undefined} data-testid="buy-credits-copy">
                {copied ? t('creditSales.copied') : t('creditSales.copyPix')}
              </Button>
            )}
          </CopyButton>
        )}
        <Text size="sm" c={left < 120 ? 'red' : 'dimmed'}>
          {left > 0 ? t('creditSales.expiresIn', { time: `${mm}:${ss}` }) : t('creditSales.chargeExpired')}
        </Text>
        <Group gap={6}>
          <Loader size="xs" />
          <Text size="xs" c="dimmed">
            {t('creditSales.waiting')}
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}
