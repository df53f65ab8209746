import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { ResellerGroup, SearchOption } from '../../api/types';
import { ResellerPicker } from '../../components/ResellerPicker';
import { groupName } from './groupName';
import type { ResellerFilters as Filters } from './search';
import './texts';

const STATUS_OPTIONS = ['1', '0'] as const;
const MAX_ID = 2_147_483_647;

interface Draft {
  id: string | number;
  master: SearchOption | null;
  group: string | null;
  status: string | null;
}

export const toDraft = (f: Partial<Filters>): Draft => ({
  id: f.id ?? '',
  master: f.reseller ? { label: f.reseller, value: f.reseller } : null,
  group: f.group !== undefined ? String(f.group) : null,
  status: f.status ?? null,
});

/**
 * The filter popover's form (ID, master, group, status), loaded when the popover first opens: the
 * list's first load carries neither it nor @mantine/form. It starts from the filters in force each
 * time it opens (the popover unmounts it when closed).
 */
export default function ResellerFilterForm({ filters, groups, onApply, onClear }: { filters: Partial<Filters>; groups: ResellerGroup[] | undefined; onApply: (patch: Partial<Filters>) => void; onClear: () => void }) {
  const { t } = useTranslation();
  const form = useForm<Draft>({ initialValues: toDraft(filters) });
  const draft = form.values;

  const apply = () => {
    const id = Number(draft.id);
    onApply({
      id: Number.isInteger(id) && id >= 1 ? id : undefined,
      reseller: draft.master?.label || undefined,
      group: draft.group ? Number(draft.group) : undefined,
      status: draft.status === '1' || draft.status === '0' ? draft.status : undefined,
    });
  };

  return (
        <form onSubmit={form.onSubmit(apply)}>
          <Stack gap="sm" data-testid="reseller-filter-popover">
            {/* A plain box, not NumberInput: apply() keeps only a whole id >= 1, and the list page does not need the number formatter's code. */}
            <TextInput
              label={t('resellers.fields.id')}
              value={draft.id}
              onChange={(e) => {
                const digits = e.currentTarget.value.replace(/\D/g, '').slice(0, 10);
                // ids are 32-bit: a larger number is clamped, as the number box did
                const id = digits && Number(digits) > MAX_ID ? String(MAX_ID) : digits;
                form.setFieldValue('id', id);
              }}
              inputMode="numeric"
              autoComplete="off"
              data-testid="reseller-filter-id"
            />
            <ResellerPicker
              label={t('resellers.fields.master')}
              value={draft.master}
              valueField="label"
              onChange={(master) => form.setFieldValue('master', master)}
              withinPortal={false}
              testId="reseller-filter-master"
            />
            <Select
              label={t('resellers.fields.group')}
              placeholder={t('resellers.filters.any')}
              clearable
              data={(groups ?? []).map((g) => ({ value: String(g.group_id), label: groupName(g.group_name, g.type) }))}
              {...form.getInputProps('group')}
              comboboxProps={{ withinPortal: false }}
              data-testid="reseller-filter-group"
            />
            <Select
              label={t('resellers.fields.status')}
              placeholder={t('resellers.filters.any')}
              clearable
              data={STATUS_OPTIONS.map((s) => ({ value: s, label: s === '1' ? t('resellers.status.active') : t('resellers.status.blocked') }))}
              {...form.getInputProps('status')}
              comboboxProps={{ withinPortal: false }}
              data-testid="reseller-filter-status"
            />
            <Group justify="space-between" gap="xs">
              <Button variant="subtle" size="compact-sm" onClick={onClear} data-testid="reseller-filter-clear">
                {t('resellers.filters.clear')}
              </Button>
              <Button type="submit" size="sm" data-testid="reseller-filter-apply">
                {t('resellers.filters.apply')}
              </Button>
            </Group>
          </Stack>
        </form>
  );
}
