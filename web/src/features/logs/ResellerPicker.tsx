import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type PickerOption, useResellerName, useResellerSearch, wordChars } from './api';

/** Debounce of the reseller search (SPEC section 9). */
export const SEARCH_DEBOUNCE_MS = 500;

interface Props {
  label: string;
  /** Selected reseller id. */
  value: number | undefined;
  onChange: (id: number | undefined, label?: string) => void;
  testId: string;
}

/** Async reseller picker: POST /resellers/select_search while typing (500 ms debounce), word characters only. */
export function ResellerPicker({ label, value, onChange, testId }: Props) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<PickerOption | null>(null);
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const results = useResellerSearch(debounced, opened);
  // A value coming from the URL has no label yet: look its username up once.
  const knownLabel = picked && Number(picked.value) === value ? picked.label : undefined;
  const name = useResellerName(value !== undefined && !knownLabel ? value : undefined);

  const selected: PickerOption | null = value === undefined ? null : { value: String(value), label: knownLabel ?? name.data ?? `#${value}` };

  const data = useMemo(() => {
    const list = [...(results.data ?? [])];
    if (selected && !list.some((o) => o.value === selected.value)) list.unshift(selected);
    return list;
  }, [results.data, selected]);

  return (
    <Select
      label={label}
      placeholder={t('logs.filters.resellerPlaceholder')}
      searchable
      clearable
      data={data}
      value={selected?.value ?? null}
      searchValue={search}
      onSearchChange={(s) => setSearch(wordChars(s))}
      onChange={(v, option) => {
        if (!v) {
          setPicked(null);
          onChange(undefined);
          return;
        }
        const label = option?.label ?? v;
        setPicked({ value: v, label });
        onChange(Number(v), label);
      }}
      onDropdownOpen={() => setOpened(true)}
      filter={({ options }) => options}
      nothingFoundMessage={results.isFetching ? t('common.loading') : t('logs.filters.noResellers')}
      rightSection={results.isFetching && opened ? <Loader size={14} /> : undefined}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}
