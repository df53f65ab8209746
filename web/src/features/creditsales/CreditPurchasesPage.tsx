import { Alert, Anchor, Badge, Button, Group, Modal, Paper, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import { useProfile } from '../../api/profile';
import type { Answer } from '../../api/types';
import { NumberField } from '../../components/NumberField';
import { PageHeader } from '../../components/PageHeader';
import { ListTable } from '../../components/table/ListTable';
import { useTableState } from '../../components/table/useTableState';
import { formatDateTime, formatMoney, formatNumber } from '../../lib/format';
import { showFormError } from '../../lib/formErrors';
import { useCreditSaleSettings, usePurchases, useSaveCreditSaleSettings } from './api';
import { BuyCredits } from './BuyCredits';
import { DIRECTIONS, PURCHASE_STATUSES, purchasesSearch } from './search';
import './texts';

type Settings = Answer<'/api/credit-sales/settings', 'get'>;
type Row = Answer<'/api/credit-purchases', 'get'>['data'][number];
const COLORS: Record<string, string> = { applied: 'green', pending: 'blue', paid_awaiting_credits: 'orange', expired: 'gray', rejected: 'red', failed: 'red' };

/** /credit-purchases — buy credits from the parent by PIX; the account's purchases and sales; a seller's offer. */
export function CreditPurchasesPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const role = profile.data?.type;
  const table = useTableState(purchasesSearch);
  const f = table.filters;
  const phone = useMediaQuery('(max-width: 36em)');
  const list = usePurchases({ page: table.page, per: table.per, direction: f.direction, status: f.status });
  const settings = useCreditSaleSettings(role === 'admin' || role === 'master');
  const buying = f.buy === '1';
  const setBuying = (open: boolean) => table.setFilters({ buy: open ? '1' : undefined });
  return (
    <Stack gap="sm">
      <PageHeader
        title={t('creditSales.title')}
        actions={
          role && role !== 'admin' ? (
            <Button onClick={() => setBuying(true)} data-testid="credit-purchases-buy">
              {t('creditSales.buy')}
            </Button>
          ) : undefined
        }
      />
      {role && role !== 'admin' && (
        <Text size="sm" c="dimmed">
          {t('creditSales.help')}
        </Text>
      )}
      {settings.data && <SettingsForm key={JSON.stringify(settings.data)} saved={settings.data} />}
      <Title order={2} size="h4" mt="md">
        {t('creditSales.listTitle')}
      </Title>
      <Group align="flex-end" gap="sm">
        <Select
          w={{ base: '100%', sm: 200 }}
          label={t('creditSales.direction')}
          value={f.direction ?? ''}
          allowDeselect={false}
          data={[{ value: '', label: t('creditSales.directions.any') }, ...DIRECTIONS.map((d) => ({ value: d, label: t(`creditSales.directions.${d}`) }))]}
          onChange={(v) => table.setFilters({ direction: (v || undefined) as typeof f.direction })}
          data-testid="credit-purchases-filter-direction"
        />
        <Select
          w={{ base: '100%', sm: 240 }}
          label={t('creditSales.status')}
          value={f.status ?? ''}
          allowDeselect={false}
          data={[{ value: '', label: t('creditSales.any') }, ...PURCHASE_STATUSES.map((s) => ({ value: s, label: t(`creditSales.statuses.${s}`) }))]}
          onChange={(v) => table.setFilters({ status: (v || undefined) as typeof f.status })}
          data-testid="credit-purchases-filter-status"
        />
      </Group>
      <ListTable<Row>
        query={list}
        table={table}
        testId="credit-purchases-table"
        rowTestId={(p) => `credit-purchase-row-${p.id}`}
        emptyText={t('creditSales.empty')}
        columns={[
          { accessor: 'credits', title: t('creditSales.credits'), card: 'title', render: (p) => formatNumber(p.credits) },
          { accessor: 'direction', title: t('creditSales.direction'), render: (p) => t(`creditSales.directions.${p.direction}`) },
          { accessor: 'buyer', title: t('creditSales.who'), render: (p) => (p.direction === 'bought' ? p.seller : p.buyer) },
          { accessor: 'amount_cents', title: t('creditSales.amount'), render: (p) => formatMoney(p.amount_cents) },
          {
            accessor: 'status',
            title: t('creditSales.status'),
            render: (p) => (
              <Badge size="sm" variant="light" color={COLORS[p.status] ?? 'gray'} data-testid={`credit-purchase-status-${p.id}`}>
                {t(`creditSales.statuses.${p.status}`, { defaultValue: p.status })}
              </Badge>
            ),
          },
          { accessor: 'created_at', title: t('creditSales.created'), noWrap: true, render: (p) => formatDateTime(p.created_at) },
        ]}
      />
      <Modal opened={buying} onClose={() => setBuying(false)} title={t('creditSales.buy')} fullScreen={phone} centered>
        {buying && <BuyCredits onClose={() => setBuying(false)} />}
      </Modal>
    </Stack>
  );
}

interface Values {
  enabled: boolean;
  price: string;
  min: number | '';
}

/** "1,50" or "2" -> 150; undefined when empty or not a price. */
const cents = (text: string): number | undefined => {
  const m = /^(\d{1,4})(?:[,.](\d{1,2}))?$/.exec(text.trim());
  const c = m ? Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0')) : undefined;
  return c && c > 0 ? c : undefined;
};

/** The seller's offer to its direct resellers (masters and admins). */
function SettingsForm({ saved }: { saved: Settings }) {
  const { t } = useTranslation();
  const save = useSaveCreditSaleSettings();
  const form = useForm<Values>({
    initialValues: { enabled: saved.enabled, price: saved.price_cents_per_credit ? (saved.price_cents_per_credit / 100).toFixed(2).replace('.', ',') : '', min: saved.min_credits },
    validate: { price: (v) => (cents(v) === undefined ? t('creditSales.priceInvalid') : null) },
  });
  const submit = form.onSubmit(async (v) => {
    try {
      await save.mutateAsync({ enabled: v.enabled, price_cents_per_credit: cents(v.price)!, min_credits: typeof v.min === 'number' && v.min > 0 ? v.min : 1 });
      notifySuccess(t('creditSales.saved'));
    } catch (e) {
      showFormError(form, e, { fields: { price_cents_per_credit: 'price', min_credits: 'min', mercadopago_access_token: 'enabled' } });
    }
  });
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-testid="credit-sales-settings">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('creditSales.settingsTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('creditSales.settingsHelp')}
          </Text>
          {!saved.mercadopago_ready && (
            <Alert color="orange" variant="light" data-testid="credit-sales-needs-mp">
              {t('creditSales.needsMercadoPago')}{' '}
              <Anchor component={Link} to="/payments" size="sm">
                {t('creditSales.openPix')}
              </Anchor>
            </Alert>
          )}
          <Switch label={t('creditSales.enabled')} data-testid="credit-sales-enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <Group grow align="flex-start" wrap="wrap">
            <TextInput miw={140} label={t('creditSales.price')} leftSection="R$" inputMode="decimal" data-testid="credit-sales-price" {...form.getInputProps('price')} />
            <NumberField miw={140} label={t('creditSales.min')} min={1} max={100_000} allowDecimal={false} allowNegative={false} data-testid="credit-sales-min" {...form.getInputProps('min')} />
          </Group>
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting} data-testid="credit-sales-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
