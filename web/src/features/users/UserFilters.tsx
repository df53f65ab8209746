import '@mantine/dates/styles.layer.css';
import { Badge, Button, Group, NumberInput, Popover, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilter, IconSearch, IconX } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_DEBOUNCE_MS } from '../../api/resellerSearch';
import { type FilterChip, FilterChips } from '../../components/FilterChips';
import { ResellerPicker } from '../../components/ResellerPicker';
import { currentLang } from '../../i18n';
import { toDay } from './format';
import { createdParam, STATUS_VALUES, type StatusFilter, TYPE_USER_VALUES, type TypeUser, type UserFilters } from './search';

interface Props {
  filters: Partial<UserFilters>;
  setFilters: (patch: Partial<UserFilters>) => void;
  removeFilter: (key: keyof UserFilters & string) => void;
  clearFilters: () => void;
  /** Plain resellers have no sub-resellers: no reseller filter. */
  showReseller: boolean;
}

/** 'YYYY-MM-DD[,YYYY-MM-DD]' -> dd/MM/YYYY[ – dd/MM/YYYY]. */
function createdLabel(created: string): string {
  const fmt = currentLang() === 'pt-BR' ? 'DD/MM/YYYY' : 'MM/DD/YYYY';
  return created
    .split(',')
    .map((d) => dayjs(d).format(fmt))
    .join(' – ');
}

/** Compact filter bar of /users: quick text search, a filter popover and removable chips (all in the URL). */
export function UserFiltersBar({ filters, setFilters, removeFilter, clearFilters, showReseller }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState(filters.text_search ?? '');
  const [debounced] = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const [opened, setOpened] = useState(false);

  // URL -> input (back/forward, chip removal); input -> URL after 500 ms.
  useEffect(() => setText(filters.text_search ?? ''), [filters.text_search]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced text writes the URL
  useEffect(() => {
    const v = debounced.trim() || undefined;
    if (v !== filters.text_search) setFilters({ text_search: v });
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
  const popoverCount = chips.filter((c) => c.key !== 'text_search').length;

  return (
    <Stack gap="xs" mb="sm">
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <TextInput
          style={{ flex: 1 }}
          maw={420}
          leftSection={<IconSearch size={16} />}
          placeholder={t('users.filters.textSearchPlaceholder')}
          aria-label={t('users.filters.textSearch')}
          value={text}
          maxLength={100}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') setFilters({ text_search: text.trim() || undefined });
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
              <FilterForm
                filters={filters}
                showReseller={showReseller}
                onApply={(patch) => {
                  setFilters(patch);
                  setOpened(false);
                }}
                onClear={() => {
                  clearFilters();
                  setOpened(false);
                }}
              />
            )}
          </Popover.Dropdown>
        </Popover>
      </Group>
      <FilterChips chips={chips} onRemove={(k) => removeFilter(k as keyof UserFilters & string)} onClearAll={clearFilters} />
    </Stack>
  );
}

type Draft = {
  id: number | string;
  username: string;
  reseller: string;
  created: [string | null, string | null];
  type_user: TypeUser | null;
  status: string | null;
};

function FilterForm({ filters, showReseller, onApply, onClear }: { filters: Partial<UserFilters>; showReseller: boolean; onApply: (p: Partial<UserFilters>) => void; onClear: () => void }) {
  const { t } = useTranslation();
  const [from, to] = (filters.created ?? '').split(',');
  const [d, setD] = useState<Draft>({
    id: filters.id ?? '',
    username: filters.username ?? '',
    reseller: filters.reseller ?? '',
    created: [from || null, to || from || null],
    type_user: filters.type_user ?? null,
    status: filters.status !== undefined ? String(filters.status) : null,
  });
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setD((prev) => ({ ...prev, [k]: v }));
  const inPortal = { withinPortal: false } as const; // nested dropdowns stay inside the popover

  const apply = () => {
    const id = typeof d.id === 'number' ? d.id : Number.parseInt(d.id, 10);
    const [a, b] = d.created.map(toDay);
    const status = d.status === null ? undefined : (Number(d.status) as StatusFilter);
    onApply({
      id: Number.isInteger(id) && id > 0 ? id : undefined,
      username: d.username.trim() || undefined,
      reseller: showReseller ? d.reseller.trim() || undefined : undefined,
      created: a ? createdParam(b && b !== a ? `${a},${b}` : a) : undefined,
      type_user: d.type_user ?? undefined,
      status,
    });
  };

  return (
    <DatesProvider settings={{ locale: currentLang() === 'pt-BR' ? 'pt-br' : 'en' }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        <Stack gap="xs">
          <SimpleGrid cols={2} spacing="xs">
            <NumberInput label={t('users.filters.id')} min={1} allowDecimal={false} allowNegative={false} hideControls value={d.id} onChange={(v) => set('id', v)} data-testid="filter-id" />
            <TextInput label={t('users.filters.username')} maxLength={50} value={d.username} onChange={(e) => set('username', e.currentTarget.value)} data-testid="filter-username" />
          </SimpleGrid>
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
