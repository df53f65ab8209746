import { Badge, Button, Group, Loader, Popover } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterChip } from '../../components/FilterChips';
import type { ResellerGroup } from '../../api/types';
import { SearchBox } from '../../components/table/SearchBox';
import type { ResellerFilters as Filters } from './search';
import { groupName } from './groupName';
import './texts';

const ResellerFilterForm = lazy(() => import('./ResellerFilterForm'));

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

function FilterPopover({ filters, groups, onChange }: Props) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const active = [filters.id, filters.reseller, filters.group, filters.status].filter((v) => v !== undefined && v !== '').length;
  const close = (patch: Partial<Filters>) => {
    onChange(patch);
    setOpened(false);
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={300} shadow="md" trapFocus withinPortal>
      <Popover.Target>
        <Button
          variant="default"
          leftSection={<IconFilter size={16} />}
          rightSection={active > 0 ? <Badge size="xs" circle>{active}</Badge> : undefined}
          onClick={() => setOpened((o) => !o)}
          data-testid="reseller-filter-button"
        >
          {t('resellers.filters.button')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Suspense fallback={<Loader size="sm" />}>
          <ResellerFilterForm filters={filters} groups={groups} onApply={close} onClear={() => close({ id: undefined, reseller: undefined, group: undefined, status: undefined })} />
        </Suspense>
      </Popover.Dropdown>
    </Popover>
  );
}
