import '@mantine/dates/styles.layer.css';
import { Button, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { ResellerPicker } from '../../components/ResellerPicker';
import { currentLang } from '../../i18n';
import { toDay } from './format';
import type { FilterMode } from './UserFilters';
import { createdParam, STATUS_VALUES, type StatusFilter, TYPE_USER_VALUES, type TypeUser, type UserFilters } from './filters';
import { NumberField } from '../../components/NumberField';

type Draft = {
  id: number | string;
  username: string;
  reseller: string;
  created: [string | null, string | null];
  type_user: TypeUser | null;
  status: string | null;
};

/** The /users filter popover's form (its own chunk: the date picker loads when the popover opens). */
export default function UserFilterForm({
  filters,
  showReseller,
  mode = 'lines',
  onApply,
  onClear,
}: { filters: Partial<UserFilters>; showReseller: boolean; mode?: FilterMode; onApply: (p: Partial<UserFilters>) => void; onClear: () => void }) {
  // /users/connections: the username is the quick search, and connections have no id filter.
  const lines = mode === 'lines';
  const { t } = useTranslation();
  const [from, to] = (filters.created ?? '').split(',');
  const form = useForm<Draft>({
    initialValues: {
      id: filters.id ?? '',
      username: filters.username ?? '',
      reseller: filters.reseller ?? '',
      created: [from || null, to || from || null],
      type_user: filters.type_user ?? null,
      status: filters.status !== undefined ? String(filters.status) : null,
    },
  });
  const d = form.values;
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => form.setFieldValue(k, v as never);
  const inPortal = { withinPortal: false } as const; // nested dropdowns stay inside the popover

  const apply = () => {
    const id = typeof d.id === 'number' ? d.id : Number.parseInt(d.id, 10);
    const [a, b] = d.created.map(toDay);
    const status = d.status === null ? undefined : (Number(d.status) as StatusFilter);
    onApply({
      ...(lines ? { id: Number.isInteger(id) && id > 0 ? id : undefined, username: d.username.trim() || undefined } : {}),
      reseller: showReseller ? d.reseller.trim() || undefined : undefined,
      created: a ? createdParam(b && b !== a ? `${a},${b}` : a) : undefined,
      type_user: d.type_user ?? undefined,
      status,
    });
  };

  return (
    <DatesProvider settings={{ locale: currentLang() === 'pt-BR' ? 'pt-br' : 'en' }}>
      <form onSubmit={form.onSubmit(apply)}>
        <Stack gap="xs">
          {lines && (
          <SimpleGrid cols={2} spacing="xs">
            <NumberField label={t('users.filters.id')} min={1} allowDecimal={false} allowNegative={false} hideControls value={d.id} onChange={(v) => set('id', v)} data-testid="filter-id" />
            <TextInput label={t('users.filters.username')} maxLength={50} value={d.username} onChange={(e) => set('username', e.currentTarget.value)} data-testid="filter-username" />
          </SimpleGrid>
          )}
          {showReseller && (
            <ResellerPicker
              label={t('users.filters.reseller')}
              value={d.reseller ? { label: d.reseller, value: d.reseller } : null}
              valueField="label"
              onChange={(o) => set('reseller', o?.label ?? '')}
              withinPortal={false}
              testId="filter-reseller"
            />
          )}
          <DatePickerInput
            type="range"
            allowSingleDateInRange
            clearable
            label={t('users.filters.created')}
            placeholder={t('users.filters.createdPlaceholder')}
            valueFormat={currentLang() === 'pt-BR' ? 'DD/MM/YYYY' : 'MM/DD/YYYY'}
            value={d.created}
            onChange={(v) => set('created', [toDay(v[0]), toDay(v[1])])}
            popoverProps={inPortal}
            data-testid="filter-created"
          />
          <SimpleGrid cols={2} spacing="xs">
            <Select
              label={t('users.filters.type')}
              placeholder={t('users.filters.any')}
              clearable
              data={TYPE_USER_VALUES.map((v) => ({ value: v, label: t(`users.filters.typeValues.${v}`) }))}
              value={d.type_user}
              onChange={(v) => set('type_user', v as TypeUser | null)}
              comboboxProps={inPortal}
              data-testid="filter-type"
            />
            <Select
              label={t('users.filters.status')}
              placeholder={t('users.filters.any')}
              clearable
              data={STATUS_VALUES.map((v) => ({ value: String(v), label: t(`users.filters.statusValues.${v}`) }))}
              value={d.status}
              onChange={(v) => set('status', v)}
              comboboxProps={inPortal}
              data-testid="filter-status"
            />
          </SimpleGrid>
          <Group justify="space-between" mt="xs">
            <Button variant="subtle" color="gray" onClick={onClear} data-testid="filter-clear">
              {t('filters.clearAll')}
            </Button>
            <Button type="submit" data-testid="filter-apply">
              {t('users.filters.apply')}
            </Button>
          </Group>
        </Stack>
      </form>
    </DatesProvider>
  );
}
