import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../api/queryClient';
import { resellerLookupKeys, SEARCH_DEBOUNCE_MS, useResellerName, useResellerSearch, wordChars } from '../api/resellerSearch';
import type { SearchOption } from '../api/types';

export interface ResellerPickerProps {
  /** The chosen reseller ({label: username, value: id}) or null. */
  value: SearchOption | null;
  onChange: (option: SearchOption | null) => void;
  /** Which part of an option identifies it: the id (default) or the username (filters by username). */
  valueField?: 'value' | 'label';
  /** Reseller ids never offered (e.g. the reseller being removed). */
  excludeIds?: readonly number[];
  label?: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  placeholder?: string;
  testId?: string;
  /** Render the dropdown in a portal (false inside a Popover). */
  withinPortal?: boolean;
}

/**
 * The one async reseller picker: POST /resellers/select_search with the typed text (word characters
 * only, 500 ms after the last key, at most 20 results), scoped to the caller's subtree by the server.
 */
export function ResellerPicker({ value, onChange, valueField = 'value', excludeIds, label, description, error, placeholder, testId, withinPortal = true }: ResellerPickerProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState(value?.label ?? '');
  const [opened, setOpened] = useState(false);
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  // Once a reseller is chosen the input shows its username: list everyone again, not just it.
  const term = value && debounced === value.label ? '' : debounced;
  const results = useResellerSearch(term, opened);

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

  const typing = search !== debounced || results.isFetching;

  return (
    <Select
      label={label}
      description={description}
      error={error}
      placeholder={placeholder ?? t('resellerPicker.placeholder')}
      searchable
      clearable
      data={data}
      value={value ? value[valueField] : null}
      searchValue={search}
      onSearchChange={(v) => setSearch(wordChars(v))}
      onChange={(v) => {
        const option = v === null ? null : ((results.data ?? []).find((o) => o[valueField] === v) ?? (value && value[valueField] === v ? value : null));
        onChange(option);
      }}
      onDropdownOpen={() => setOpened(true)}
      filter={({ options }) => options}
      nothingFoundMessage={typing ? t('common.loading') : t('resellerPicker.nothingFound')}
      rightSection={opened && results.isFetching ? <Loader size={16} /> : undefined}
      comboboxProps={{ withinPortal }}
      maxDropdownHeight={260}
      data-testid={testId}
    />
  );
}

/** The picker bound to a reseller id (URL filters): a URL id shows its username, looked up once. */
export function ResellerIdPicker({ value, onChange, ...rest }: Omit<ResellerPickerProps, 'value' | 'onChange' | 'valueField'> & { value: number | undefined; onChange: (id: number | undefined) => void }) {
  const name = useResellerName(value);
  const option = value === undefined ? null : { value: String(value), label: name.data ?? `#${value}` };
  return (
    <ResellerPicker
      {...rest}
      value={option}
      onChange={(o) => {
        if (!o) return onChange(undefined);
        // The username is known now: no lookup for the chip or the picker.
        queryClient.setQueryData(resellerLookupKeys.name(Number(o.value)), o.label);
        onChange(Number(o.value));
      }}
    />
  );
}
