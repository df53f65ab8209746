import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { type SearchOption, searchResellers } from './api';
import { wordChars } from './search';

/** SPEC section 9: the reseller search waits 500 ms after the last key. */
export const SEARCH_DEBOUNCE_MS = 500;

export interface ResellerSelectProps {
  /** The chosen reseller ({label: username, value: id}) or null. */
  value: SearchOption | null;
  onChange: (option: SearchOption | null) => void;
  /** Which part of an option identifies it: the id (default) or the username. */
  valueField?: 'value' | 'label';
  /** Reseller ids never offered (e.g. the reseller being removed). */
  excludeIds?: readonly number[];
  label?: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  placeholder?: string;
  testId?: string;
  /** Render the dropdown inside the parent (needed inside a Popover). */
  withinPortal?: boolean;
}

/**
 * Async reseller picker: POST /resellers/select_search with the typed text (word characters only,
 * debounced 500 ms, at most 20 results), scoped to the caller's subtree by the server.
 */
export function ResellerSelect({
  value,
  onChange,
  valueField = 'value',
  excludeIds,
  label,
  description,
  error,
  placeholder,
  testId,
  withinPortal = true,
}: ResellerSelectProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState(value?.label ?? '');
  const [opened, setOpened] = useState(false);
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  // Once a reseller is chosen the input shows its username; do not search for it again.
  const term = value && debounced === value.label ? '' : debounced;

  const results = useQuery({
    queryKey: queryKeys.resellers.search(term),
    queryFn: ({ signal }) => searchResellers(term, signal),
    enabled: opened,
    staleTime: 30_000,
  });

  const data = useMemo(() => {
    const seen = new Set<string>();
    const out: { value: string; label: string }[] = [];
    const excluded = new Set((excludeIds ?? []).map(String));
    for (const o of [...(value ? [value] : []), ...(results.data ?? [])]) {
      const v = o[valueField];
      if (seen.has(v) || (o !== value && excluded.has(o.value))) continue;
      seen.add(v);
      out.push({ value: v, label: o.label });
    }
    return out;
  }, [value, results.data, valueField, excludeIds]);

  const selected = value ? value[valueField] : null;
  const typing = search !== debounced || results.isFetching;

  return (
    <Select
      label={label}
      description={description}
      error={error}
      placeholder={placeholder ?? t('resellers.search.placeholder')}
      searchable
      clearable
      data={data}
      value={selected}
      searchValue={search}
      onSearchChange={(v) => setSearch(wordChars(v))}
      onChange={(v) => {
        const option = v === null ? null : ((results.data ?? []).find((o) => o[valueField] === v) ?? (value && value[valueField] === v ? value : null));
        onChange(option);
      }}
      onDropdownOpen={() => setOpened(true)}
      filter={({ options }) => options}
      nothingFoundMessage={typing ? t('common.loading') : t('resellers.search.nothingFound')}
      rightSection={opened && results.isFetching ? <Loader size={16} /> : undefined}
      comboboxProps={{ withinPortal }}
      maxDropdownHeight={260}
      data-testid={testId}
    />
  );
}
