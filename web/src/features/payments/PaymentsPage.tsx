import { Alert, Badge, Button, Code, CopyButton, Group, Paper, PasswordInput, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useComplements } from '../../api/complements';
import { notifySuccess } from '../../api/notify';
import type { Answer } from '../../api/types';
import { ExportMenu } from '../../components/ExportMenu';
import { PageHeader } from '../../components/PageHeader';
import { ListTable } from '../../components/table/ListTable';
import { useTableState } from '../../components/table/useTableState';
import { formatDateTime, formatMoney } from '../../lib/format';
import { showFormError } from '../../lib/formErrors';
import { usePayments, usePaymentSettings, useSavePaymentSettings } from './api';
import { PAYMENT_STATUSES, paymentsSearch } from './search';
import './texts';

type Settings = Answer<'/api/payments/settings', 'get'>;
type Payment = Answer<'/api/payments', 'get'>['data'][number];
const COLORS: Record<string, string> = { applied: 'green', pending: 'blue', paid_awaiting_credits: 'orange', expired: 'gray', rejected: 'red', failed: 'red' };

/** /payments — PIX by Mercado Pago: the account's credentials and prices, and its customers' payments. */
export function PaymentsPage() {
  const { t } = useTranslation();
  const settings = usePaymentSettings();
  const table = useTableState(paymentsSearch);
  const f = table.filters;
  const list = usePayments({ page: table.page, per: table.per, status: f.status, line: f.line });
  return (
    <Stack gap="sm">
      <PageHeader title={t('payments.title')} />
      <Text size="sm" c="dimmed">
        {t('payments.help')}
      </Text>
      {settings.data && <SettingsForm key={JSON.stringify(settings.data)} saved={settings.data} />}
      <Title order={2} size="h4" mt="md">
        {t('payments.listTitle')}
      </Title>
      <Group align="flex-end" justify="space-between" gap="sm">
        <Select
          w={{ base: '100%', sm: 260 }}
          label={t('payments.status')}
          value={f.status ?? ''}
          allowDeselect={false}
          data={[{ value: '', label: t('payments.any') }, ...PAYMENT_STATUSES.map((s) => ({ value: s, label: t(`payments.statuses.${s}`) }))]}
          onChange={(v) => table.setFilters({ status: (v || undefined) as typeof f.status })}
          data-testid="payments-filter-status"
        />
        <ExportMenu path="/payments/export" query={{ status: f.status, line: f.line }} formats={['csv', 'xlsx']} testId="payments-export" />
      </Group>
      <ListTable<Payment>
        query={list}
        table={table}
        testId="payments-table"
        rowTestId={(p) => `payment-row-${p.id}`}
        emptyText={t('payments.empty')}
        columns={[
          { accessor: 'username', title: t('payments.line'), card: 'title' },
          { accessor: 'amount_cents', title: t('payments.amount'), render: (p) => formatMoney(p.amount_cents) },
          {
            accessor: 'status',
            title: t('payments.status'),
            render: (p) => (
              <Badge size="sm" variant="light" color={COLORS[p.status] ?? 'gray'} data-testid={`payment-status-${p.id}`}>
                {t(`payments.statuses.${p.status}`, { defaultValue: p.status })}
              </Badge>
            ),
          },
          { accessor: 'package_name', title: t('payments.package'), visibleFrom: 'md' },
          { accessor: 'created_at', title: t('payments.created'), noWrap: true, render: (p) => formatDateTime(p.created_at) },
          { accessor: 'exp_after', title: t('payments.renewedUntil'), visibleFrom: 'md', render: (p) => (p.exp_after ? formatDateTime(p.exp_after) : (p.last_error ?? '')) },
        ]}
      />
    </Stack>
  );
}

interface Values {
  enabled: boolean;
  token: string;
  secret: string;
  prices: Record<string, string>;
}

/** "35,00" or "35" -> 3500; undefined when empty or not a price. */
const cents = (text: string): number | undefined => {
  const m = /^(\d{1,6})(?:[,.](\d{1,2}))?$/.exec(text.trim());
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0')) : undefined;
};

function SettingsForm({ saved }: { saved: Settings }) {
  const { t } = useTranslation();
  const complements = useComplements();
  const save = useSavePaymentSettings();
  const packages = (complements.data?.packages ?? []).filter((p) => p.is_trial === 0);
  const form = useForm<Values>({
    initialValues: {
      enabled: saved.enabled,
      token: '',
      secret: '',
      prices: Object.fromEntries(saved.prices.map((p) => [String(p.package_id), (p.price_cents / 100).toFixed(2).replace('.', ',')])),
    },
    validate: { prices: (v) => (Object.values(v).some((x) => x.trim() !== '' && cents(x) === undefined) ? t('payments.priceInvalid') : null) },
  });
  const submit = form.onSubmit(async (v) => {
    try {
      await save.mutateAsync({
        enabled: v.enabled,
        ...(v.token.trim() ? { mercadopago_access_token: v.token.trim() } : {}),
        ...(v.secret.trim() ? { mercadopago_webhook_secret: v.secret.trim() } : {}),
        prices: Object.entries(v.prices).flatMap(([id, text]) => (cents(text) ? [{ package_id: Number(id), price_cents: cents(text)! }] : [])),
      });
      notifySuccess(t('payments.saved'));
    } catch (e) {
      showFormError(form, e, { fields: { mercadopago_access_token: 'token', mercadopago_webhook_secret: 'secret' } });
    }
  });
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {!saved.public_url_configured && (
            <Alert color="orange" variant="light" data-testid="payments-no-public-url">
              {t('payments.noPublicUrl')}
            </Alert>
          )}
          <Switch label={t('payments.enabled')} data-testid="payments-enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <PasswordInput label={t('payments.token')} description={saved.mercadopago_access_token_set ? t('payments.secretSet') : t('payments.tokenHint')} autoComplete="off" data-testid="payments-token" {...form.getInputProps('token')} />
            <PasswordInput label={t('payments.secret')} description={saved.mercadopago_webhook_secret_set ? t('payments.secretSet') : t('payments.secretHint')} autoComplete="off" data-testid="payments-secret" {...form.getInputProps('secret')} />
          </SimpleGrid>
          {saved.notification_url && (
            <div>
              <Text size="sm" fw={500}>
                {t('payments.notificationUrl')}
              </Text>
              <Group gap="xs" wrap="nowrap">
                <Code style={{ overflowWrap: 'anywhere', flex: 1 }} data-testid="payments-notification-url">
                  {saved.notification_url}
                </Code>
                <CopyButton value={saved.notification_url}>{({ copied, copy }) => <Button size="compact-xs" variant="light" onClick={copy}>{copied ? t('payments.copied') : t('payments.copy')}</Button>}</CopyButton>
              </Group>
              {!saved.notification_url_reachable && (
                <Alert color="orange" variant="light" mt="xs" data-testid="payments-notification-unreachable">
                  {t('payments.notificationUnreachable')}
                </Alert>
              )}
            </div>
          )}
          <Text size="sm" fw={500}>
            {t('payments.prices')}
          </Text>
          <Text size="xs" c="dimmed" mt={-8}>
            {t('payments.pricesHint')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {packages.map((p) => (
              <TextInput key={p.id} label={p.package_name} description={t('payments.priceDescription')} leftSection="R$" inputMode="decimal" data-testid={`payments-price-${p.id}`} {...form.getInputProps(`prices.${p.id}`)} value={form.values.prices[String(p.id)] ?? ''} />
            ))}
          </SimpleGrid>
          {form.errors.prices && (
            <Text size="sm" c="red" data-testid="payments-prices-error">
              {form.errors.prices}
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting} data-testid="payments-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
