import { Badge, Button, Group, Loader, Popover, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilter, IconSearch, IconX } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_DEBOUNCE_MS } from '../../api/resellerSearch';
import { type FilterChip, FilterChips } from '../../components/FilterChips';
import { currentLang } from '../../i18n';
import type { StatusFilter, TypeUser, UserFilters } from './filters';

const FilterForm = lazy(() => import('./UserFilterForm'));

interface Props {
  filters: Partial<UserFilters>;
  setFilters: (patch: Partial<UserFilters>) => void;
  removeFilter: (key: keyof UserFilters & string) => void;
  clearFilters: () => void;
  /** Plain resellers have no sub-resellers: no reseller filter. */
  showReseller: boolean;
  /**
   * 'lines' (/users, default): quick search on text_search, every filter. 'connections'
   * (/users/connections): quick search on the username; no id and no text search.
   */
  mode?: FilterMode;
}

export type FilterMode = 'lines' | 'connections';

/** 'YYYY-MM-DD[,YYYY-MM-DD]' -> dd/MM/YYYY[ – dd/MM/YYYY]. */
function createdLabel(created: string): string {
  const fmt = currentLang() === 'pt-BR' ? 'DD/MM/YYYY' : 'MM/DD/YYYY';
  return created
    .split(',')
    .map((d) => dayjs(d).format(fmt))
    .join(' – ');
}

/** Compact filter bar of /users: quick text search, a filter popover and removable chips (all in the URL). */
export function UserFiltersBar({ filters, setFilters, removeFilter, clearFilters, showReseller, mode = 'lines' }: Props) {
  const { t } = useTranslation();
  const quick = mode === 'connections' ? 'username' : 'text_search';
  const [text, setText] = useState(filters[quick] ?? '');
  const [debounced] = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const [opened, setOpened] = useState(false);

  // URL -> input (back/forward, chip removal); input -> URL after 500 ms.
  const current = filters[quick];
  useEffect(() => setText(current ?? ''), [current]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced text writes the URL
  useEffect(() => {
    const v = debounced.trim() || undefined;
    if (v !== current) setFilters({ [quick]: v });
  }, [debounced]);

  const statusLabel = (s: StatusFilter) => t(`users.filters.statusValues.${s}`);
  const typeLabel = (v: TypeUser) => t(`users.filters.typeValues.${v}`);

  const chips: FilterChip[] = [];
  if (filters.id !== undefined) chips.push({ key: 'id', label: t('users.filters.id'), value: String(filters.id) });
  if (filters.username) chips.push({ key: 'username', label: t('users.filters.username'), value: filters.username });
  if (filters.text_search) chips.push({ key: 'text_search', label: t('users.filters.textSearch'), value: filters.text_search });
  if (filters.reseller) chips.push({ key: 'reseller', label: t('users.filters.reseller'), value: filters.reseller });
  if (filters.created) chips.push({ key: 'created', label: t('users.filters.created'), value: createdLabel(filters.created) });
  if (filters.type_user) chips.push({ key: 'type_user', label: t('users.filters.type'), value: typeLabel(filters.type_user) });
  if (filters.status !== undefined) chips.push({ key: 'status', label: t('users.filters.status'), value: statusLabel(filters.status) });
  const popoverCount = chips.filter((c) => c.key !== quick).length;

  return (
    <Stack gap="xs" mb="sm">
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <TextInput
          style={{ flex: 1 }}
          maw={420}
          leftSection={<IconSearch size={16} />}
          placeholder={mode === 'connections' ? t('connections.searchPlaceholder') : t('users.filters.textSearchPlaceholder')}
          aria-label={mode === 'connections' ? t('users.filters.username') : t('users.filters.textSearch')}
          value={text}
          maxLength={100}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') setFilters({ [quick]: text.trim() || undefined });
          }}
          rightSection={
            text ? (
              <IconX size={16} style={{ cursor: 'pointer' }} aria-label={t('filters.clearAll')} onClick={() => setText('')} />
            ) : undefined
          }
          data-testid="users-search"
        />
        <Popover opened={opened} onChange={setOpened} position="bottom-end" shadow="md" width={340} trapFocus withinPortal>
          <Popover.Target>
            <Button
              variant={popoverCount ? 'light' : 'default'}
              leftSection={<IconFilter size={16} />}
              rightSection={popoverCount ? <Badge size="xs" circle>{popoverCount}</Badge> : undefined}
              onClick={() => setOpened((o) => !o)}
              data-testid="users-filters-toggle"
            >
              {t('users.filters.title')}
            </Button>
          </Popover.Target>
          <Popover.Dropdown data-testid="users-filters">
            {opened && (
              <Suspense fallback={<Loader size="sm" />}>
              <FilterForm
                filters={filters}
                showReseller={showReseller}
                mode={mode}
                onApply={(patch) => {
                  setFilters(patch);
                  setOpened(false);
                }}
                onClear={() => {
                  clearFilters();
                  setOpened(false);
                }}
              />
              </Suspense>
            )}
          </Popover.Dropdown>
        </Popover>
      </Group>
      <FilterChips chips={chips} onRemove={(k) => removeFilter(k as keyof UserFilters & string)} onClearAll={clearFilters} />
    </Stack>
  );
}
