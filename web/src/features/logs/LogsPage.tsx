import { Badge, Button, Collapse, MultiSelect, Paper, Select, SimpleGrid, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import type { DatesRangeValue } from '@mantine/dates';
import { useDebouncedCallback, useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconCalendar } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FilterChip, FilterChips } from '../../components/FilterChips';
import { ExportMenu } from '../../components/ExportMenu';
import { PageHeader } from '../../components/PageHeader';
import { ListTable } from '../../components/table/ListTable';
import type { ResponsiveColumn } from '../../components/table/ResponsiveTable';
import type { SortState } from '../../components/table/tableSearch';
import { useTableState } from '../../components/table/useTableState';
import { currentLang } from '../../i18n';
import { useProfile } from '../../api/profile';
import { formatNumber } from '../../lib/format';
import { SEARCH_DEBOUNCE_MS, useResellerName } from '../../api/resellerSearch';
import { ResellerIdPicker } from '../../components/ResellerPicker';
import type { LogEntry } from '../../api/types';
import { useLogOptions, useLogs } from './api';
import { DATE_PRESETS, type DateChoice, DAY_FORMAT, DEFAULT_PRESET, customRange, datesParam, presetRange } from './dates';
import { actionLabel, creditsOf, targetOf, typeLabel, valueText } from './describe';
import { logsSearch } from './search';
import './texts';

// The date picker (and its CSS) is only needed for a custom range.
const DateRangeInput = lazy(() => import('../../components/DateRangeInput'));

const DEFAULT_SORT: SortState = { field: 'created_at', direction: 'desc' };
const RANGE_FORMAT = 'DD/MM/YYYY';

/** The [from, to] range the filters select, in the browser's time zone (stable within a day). */
function useDateRange(preset: DateChoice | undefined, from: string | undefined, to: string | undefined) {
  const today = dayjs().format(DAY_FORMAT); // recomputed on render; the range only moves when the day does
  return useMemo(() => {
    if (preset === 'custom') {
      const r = customRange(from, to);
      if (r) return r;
    }
    return presetRange(preset && preset !== 'custom' ? preset : DEFAULT_PRESET, dayjs(today).endOf('day'));
  }, [preset, from, to, today]);
}

/** Line-username filter: typed freely, written to the URL 500 ms after the last key. */
function UserFilter({ value, onChange }: { value: string | undefined; onChange: (v: string | undefined) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  const commit = useDebouncedCallback((v: string) => onChange(v.trim() || undefined), SEARCH_DEBOUNCE_MS);
  return (
    <TextInput
      label={t('logs.filters.user')}
      placeholder={t('logs.filters.userPlaceholder')}
      value={text}
      maxLength={50}
      onChange={(e) => {
        setText(e.currentTarget.value);
        commit(e.currentTarget.value);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          commit.cancel?.();
          onChange(text.trim() || undefined);
        }
      }}
      data-testid="logs-filter-user"
    />
  );
}

function CreditsCell({ entry }: { entry: LogEntry }) {
  const c = creditsOf(entry);
  if (c === null) return <>—</>;
  return (
    <Text span size="sm" fw={600} c={c < 0 || entry.action === 'remove_credits' ? 'red' : undefined}>
      {formatNumber(c)}
    </Text>
  );
}

const formatLogDate = (ms: number) => dayjs(ms).format('DD/MM/YYYY HH:mm:ss');

/** /logs — the action log: filters in the query string (chips), date presets, paged sortable table. */
export function LogsPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const table = useTableState(logsSearch, DEFAULT_SORT);
  const f = table.filters;
  const options = useLogOptions();
  const desktop = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const [filtersOpen, setFiltersOpen] = useState(desktop);
  // Plain resellers have no sub-resellers (select_search answers 403): no pickers, no reseller filters.
  const plainReseller = profile.data?.type === 'reseller';
  const canPickResellers = profile.data !== undefined && !plainReseller;

  const range = useDateRange(f.preset, f.from, f.to);
  const dates = datesParam(range);
  const apiQuery = {
    page: table.page,
    per: table.per,
    order_by: table.orderBy,
    type: f.type,
    actions: f.actions,
    reseller: plainReseller ? undefined : f.reseller,
    toreseller: plainReseller ? undefined : f.toreseller,
    user: f.user,
    dates,
  };
  const query = useLogs(apiQuery);

  // Custom range being picked (the URL changes only once both days are chosen).
  const [picking, setPicking] = useState<DatesRangeValue<string> | null>(null);
  const pickerValue: DatesRangeValue<string> = picking ?? [range[0].format(DAY_FORMAT), range[1].format(DAY_FORMAT)];

  const choice: DateChoice = f.preset ?? DEFAULT_PRESET;
  const presetData = [...DATE_PRESETS, 'custom' as const].map((p) => ({ value: p, label: t(`logs.presets.${p}`) }));
  const rangeText = `${range[0].format(RANGE_FORMAT)} – ${range[1].format(RANGE_FORMAT)}`;

  const actions = f.actions ? f.actions.split(',') : [];
  const typeOptions = (options.data?.types ?? []).map((v) => ({ value: v, label: typeLabel(t, v) }));
  const actionOptions = (options.data?.actions ?? []).map((v) => ({ value: v, label: actionLabel(t, v) }));

  const resellerName = useResellerName(canPickResellers ? f.reseller : undefined);
  const toResellerName = useResellerName(canPickResellers ? f.toreseller : undefined);

  const chips: FilterChip[] = [];
  if (f.preset) chips.push({ key: 'preset', label: t('logs.filters.dates'), value: f.preset === 'custom' ? rangeText : t(`logs.presets.${f.preset}`) });
  if (f.type) chips.push({ key: 'type', label: t('logs.filters.type'), value: typeLabel(t, f.type) });
  if (actions.length) chips.push({ key: 'actions', label: t('logs.filters.actions'), value: actions.map((a) => actionLabel(t, a)).join(', ') });
  if (canPickResellers && f.reseller) chips.push({ key: 'reseller', label: t('logs.filters.reseller'), value: resellerName.data ?? `#${f.reseller}` });
  if (canPickResellers && f.toreseller)
    chips.push({ key: 'toreseller', label: t('logs.filters.toreseller'), value: toResellerName.data ?? `#${f.toreseller}` });
  if (f.user) chips.push({ key: 'user', label: t('logs.filters.user'), value: f.user });
  const activeCount = chips.length;

  const removeChip = (key: string) => {
    if (key === 'preset') table.setFilters({ preset: undefined, from: undefined, to: undefined });
    else table.removeFilter(key as 'type');
  };

  const columns: ResponsiveColumn<LogEntry>[] = [
    {
      accessor: 'created_at',
      title: t('logs.columns.date'),
      sortable: true,
      noWrap: true,
      render: (e) => formatLogDate(e.created_at),
    },
    {
      accessor: 'type_log',
      title: t('logs.columns.type'),
      noWrap: true,
      render: (e) => (
        <Badge variant="light" size="sm" styles={{ root: { textTransform: 'none', overflow: 'visible' }, label: { overflow: 'visible', textOverflow: 'clip' } }}>
          {typeLabel(t, e.type_log)}
        </Badge>
      ),
    },
    { accessor: 'action', title: t('logs.columns.action'), card: 'title', render: (e) => <span data-testid="log-action">{actionLabel(t, e.action)}</span> },
    { accessor: 'user', title: t('logs.columns.user'), render: (e) => (e.api_key ? `${e.user ?? '—'} · ${t('logs.viaKey', { name: e.api_key })}` : (e.user ?? '—')) },
    { accessor: 'reseller', title: t('logs.columns.reseller'), render: (e) => <span data-testid="log-reseller">{e.reseller ?? '—'}</span> },
    { accessor: 'target', title: t('logs.columns.target'), render: (e) => targetOf(e) || '—' },
    { accessor: 'value', title: t('logs.columns.value'), breakWords: true, render: (e) => valueText(t, e) || '—' },
    {
      accessor: 'value_int',
      title: t('logs.columns.credits'),
      textAlign: 'right',
      render: (e) => <CreditsCell entry={e} />,
    },
  ];

  return (
    <>
      <PageHeader
        title={t('logs.title')}
        actions={
          <>
            <ExportMenu path="/logs/export" query={apiQuery} testId="logs-export" />
            <Button
              variant={filtersOpen ? 'light' : 'default'}
              leftSection={<IconAdjustmentsHorizontal size={18} />}
              rightSection={
                activeCount > 0 ? (
                  <Badge size="sm" circle>
                    {activeCount}
                  </Badge>
                ) : undefined
              }
              onClick={() => setFiltersOpen((o) => !o)}
              aria-expanded={filtersOpen}
              data-testid="logs-filters-toggle"
            >
              {t('logs.filters.title')}
            </Button>
          </>
        }
      />
      <Collapse expanded={filtersOpen}>
        <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} mb="sm" data-testid="logs-filters">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" verticalSpacing="sm">
            <Select
              label={t('logs.filters.dates')}
              data={presetData}
              value={choice}
              allowDeselect={false}
              leftSection={<IconCalendar size={16} />}
              onChange={(v) => {
                if (!v) return;
                setPicking(null);
                if (v === 'custom') {
                  table.setFilters({ preset: 'custom', from: range[0].format(DAY_FORMAT), to: range[1].format(DAY_FORMAT) });
                } else {
                  table.setFilters({ preset: v === DEFAULT_PRESET ? undefined : (v as DateChoice), from: undefined, to: undefined });
                }
              }}
              comboboxProps={{ withinPortal: true }}
              data-testid="logs-filter-preset"
            />
            {choice === 'custom' && (
              <Suspense fallback={<Skeleton h={36} mt={24} />}>
                <DateRangeInput
                  label={t('logs.filters.customRange')}
                  locale={currentLang() === 'pt-BR' ? 'pt-br' : 'en'}
                  value={pickerValue}
                  maxDate={dayjs().endOf('month').format(DAY_FORMAT)}
                  testId="logs-filter-range"
                  onChange={(v) => {
                    if (v[0] && v[1]) {
                      setPicking(null);
                      table.setFilters({ preset: 'custom', from: v[0], to: v[1] });
                    } else setPicking(v);
                  }}
                />
              </Suspense>
            )}
            <Select
              label={t('logs.filters.type')}
              placeholder={t('logs.filters.any')}
              data={typeOptions}
              value={f.type ?? null}
              clearable
              onChange={(v) => table.setFilters({ type: v ?? undefined })}
              comboboxProps={{ withinPortal: true }}
              data-testid="logs-filter-type"
            />
            <MultiSelect
              label={t('logs.filters.actions')}
              placeholder={actions.length ? undefined : t('logs.filters.any')}
              data={actionOptions}
              value={actions}
              searchable
              clearable
              hidePickedOptions
              maxDropdownHeight={280}
              onChange={(v) => table.setFilters({ actions: v.length ? v.join(',') : undefined })}
              comboboxProps={{ withinPortal: true }}
              data-testid="logs-filter-actions"
            />
            {canPickResellers && (
              <ResellerIdPicker
                label={t('logs.filters.reseller')}
                value={f.reseller}
                onChange={(id) => table.setFilters({ reseller: id })}
                testId="logs-filter-reseller"
              />
            )}
            {canPickResellers && (
              <ResellerIdPicker
                label={t('logs.filters.toreseller')}
                value={f.toreseller}
                onChange={(id) => table.setFilters({ toreseller: id })}
                testId="logs-filter-toreseller"
              />
            )}
            <UserFilter value={f.user} onChange={(v) => table.setFilters({ user: v })} />
          </SimpleGrid>
        </Paper>
      </Collapse>
      <Stack gap="xs" mb="sm">
        <Text size="sm" c="dimmed" data-testid="logs-range">
          {t('logs.rangeSummary', { from: range[0].format('DD/MM/YYYY HH:mm'), to: range[1].format('DD/MM/YYYY HH:mm') })}
        </Text>
        <FilterChips chips={chips} onRemove={removeChip} onClearAll={table.clearFilters} />
      </Stack>
      <ListTable columns={columns} query={query} table={table} testId="logs-table" rowTestId={(e) => `log-row-${e.id}`} emptyText={t('logs.empty')} />
    </>
  );
}
