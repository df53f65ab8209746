import { Group, Select, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type FilterChip, FilterChips } from '../../components/FilterChips';
import { ResellerPicker } from '../../components/ResellerPicker';
import { SearchBox } from '../../components/table/SearchBox';
import { P2P_STATUS_VALUES, P2P_TYPE_VALUES, type P2pFilters, type P2pStatus, type P2pType } from './search';

interface Props {
  filters: Partial<P2pFilters>;
  setFilters: (patch: Partial<P2pFilters>) => void;
  removeFilter: (key: keyof P2pFilters & string) => void;
  clearFilters: () => void;
  /** Plain resellers have no sub-resellers: no reseller filter. */
  showReseller: boolean;
}

/** /p2p_users filters, all in the URL: username (applied 500 ms after typing), status, type, reseller; removable chips. */
export function P2pFilterBar({ filters, setFilters, removeFilter, clearFilters, showReseller }: Props) {
  const { t } = useTranslation();
  const chips: FilterChip[] = [];
  if (filters.id !== undefined) chips.push({ key: 'id', label: t('p2p.columns.id'), value: String(filters.id) });
  if (filters.username) chips.push({ key: 'username', label: t('p2p.columns.username'), value: filters.username });
  if (filters.reseller) chips.push({ key: 'reseller', label: t('p2p.columns.reseller'), value: filters.reseller });
  if (filters.status !== undefined) chips.push({ key: 'status', label: t('p2p.columns.status'), value: t(`p2p.statusFilter.${filters.status}`) });
  if (filters.type_user) chips.push({ key: 'type_user', label: t('p2p.filters.type'), value: t(`p2p.filters.typeValues.${filters.type_user}`) });

  return (
    <Stack gap="xs" mb="sm">
      <Group gap="xs" align="flex-end" wrap="wrap">
        <SearchBox value={filters.username ?? ''} onChange={(v) => setFilters({ username: v || undefined })} label={t('p2p.filters.username')} maw={300} miw={200} testId="p2p-filter-username" />
        <Select
          w={170}
          placeholder={t('p2p.columns.status')}
          aria-label={t('p2p.columns.status')}
          clearable
          data={P2P_STATUS_VALUES.map((v) => ({ value: String(v), label: t(`p2p.statusFilter.${v}`) }))}
          value={filters.status !== undefined ? String(filters.status) : null}
          onChange={(v) => setFilters({ status: v === null ? undefined : (Number(v) as P2pStatus) })}
          data-testid="p2p-filter-status"
        />
        <Select
          w={150}
          placeholder={t('p2p.filters.type')}
          aria-label={t('p2p.filters.type')}
          clearable
          data={P2P_TYPE_VALUES.map((v) => ({ value: v, label: t(`p2p.filters.typeValues.${v}`) }))}
          value={filters.type_user ?? null}
          onChange={(v) => setFilters({ type_user: (v as P2pType | null) ?? undefined })}
          data-testid="p2p-filter-type"
        />
        {showReseller && (
          <ResellerPicker
            value={filters.reseller ? { label: filters.reseller, value: filters.reseller } : null}
            valueField="label"
            placeholder={t('p2p.columns.reseller')}
            onChange={(o) => setFilters({ reseller: o?.label || undefined })}
            testId="p2p-filter-reseller"
          />
        )}
      </Group>
      <FilterChips chips={chips} onRemove={(k) => removeFilter(k as keyof P2pFilters & string)} onClearAll={clearFilters} />
    </Stack>
  );
}
