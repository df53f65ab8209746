import { Badge, Button, Group, Popover, Select, Stack, TextInput } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterChip } from '../../components/FilterChips';
import type { ResellerGroup, SearchOption } from '../../api/types';
import { ResellerPicker } from '../../components/ResellerPicker';
import { SearchBox } from '../../components/table/SearchBox';
import type { ResellerFilters as Filters } from './search';
import { groupName } from './groupName';
import './texts';

const STATUS_OPTIONS = ['1', '0'] as const;
const MAX_ID = 2_147_483_647;

/** Removable chips for the active filters (the master chip shows the username). */
export function filterChips(filters: Partial<Filters>, groups: ResellerGroup[] | undefined, t: (key: string) => string): FilterChip[] {
  const chips: FilterChip[] = [];
  if (filters.id !== undefined) chips.push({ key: 'id', label: t('resellers.fields.id'), value: String(filters.id) });
  if (filters.username) chips.push({ key: 'username', label: t('resellers.fields.username'), value: filters.username });
  if (filters.reseller) chips.push({ key: 'reseller', label: t('resellers.fields.master'), value: filters.reseller });
  if (filters.group !== undefined) {
    const g = groups?.find((x) => x.group_id === filters.group);
    chips.push({ key: 'group', label: t('resellers.fields.group'), value: g ? groupName(g.group_name, g.type) : `#${filters.group}` });
  }
  if (filters.status !== undefined) {
    chips.push({ key: 'status', label: t('resellers.fields.status'), value: filters.status === '1' ? t('resellers.status.active') : t('resellers.status.blocked') });
  }
  return chips;
}

interface Props {
  filters: Partial<Filters>;
  groups: ResellerGroup[] | undefined;
  onChange: (patch: Partial<Filters>) => void;
}

/** The username box (applied 500 ms after typing) and the filter popover (ID, master, group, status). */
export function ResellerFilterBar({ filters, groups, onChange }: Props) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      <SearchBox
        value={filters.username ?? ''}
        onChange={(username) => onChange({ username: username || undefined })}
        label={t('resellers.filters.username')}
        testId="reseller-filter-username"
      />
      <FilterPopover filters={filters} groups={groups} onChange={onChange} />
    </Group>
  );
}

interface Draft {
  id: string | number;
  master: SearchOption | null;
  group: string | null;
  status: string | null;
}

const toDraft = (f: Partial<Filters>): Draft => ({
  id: f.id ?? '',
  master: f.reseller ? { label: f.reseller, value: f.reseller } : null,
  group: f.group !== undefined ? String(f.group) : null,
  status: f.status ?? null,
});

function FilterPopover({ filters, groups, onChange }: Props) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const form = useForm<Draft>({ initialValues: toDraft(filters) });
  const draft = form.values;
  const active = [filters.id, filters.reseller, filters.group, filters.status].filter((v) => v !== undefined && v !== '').length;

  const open = () => {
    form.setValues(toDraft(filters));
    setOpened(true);
  };

  const apply = () => {
    const id = Number(draft.id);
    onChange({
      id: Number.isInteger(id) && id >= 1 ? id : undefined,
      reseller: draft.master?.label || undefined,
      group: draft.group ? Number(draft.group) : undefined,
      status: draft.status === '1' || draft.status === '0' ? draft.status : undefined,
    });
    setOpened(false);
  };

  const clear = () => {
    onChange({ id: undefined, reseller: undefined, group: undefined, status: undefined });
    setOpened(false);
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={300} shadow="md" trapFocus withinPortal>
      <Popover.Target>
        <Button
          variant="default"
          leftSection={<IconFilter size={16} />}
          rightSection={active > 0 ? <Badge size="xs" circle>{active}</Badge> : undefined}
          onClick={() => (opened ? setOpened(false) : open())}
          data-testid="reseller-filter-button"
        >
          {t('resellers.filters.button')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
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
              <Button variant="subtle" size="compact-sm" onClick={clear} data-testid="reseller-filter-clear">
                {t('resellers.filters.clear')}
              </Button>
              <Button type="submit" size="sm" data-testid="reseller-filter-apply">
                {t('resellers.filters.apply')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
