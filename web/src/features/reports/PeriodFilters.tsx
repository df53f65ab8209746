import { Select, SimpleGrid, Skeleton } from '@mantine/core';
import type { DatesRangeValue } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ResellerIdPicker } from '../../components/ResellerPicker';
import { currentLang } from '../../i18n';
import { DAY_FORMAT } from '../../lib/days';
import type { ReportRange } from './period';
import { DEFAULT_PERIOD, PERIODS, type Period, type ReportsSearch } from './search';
import './texts';

// The date picker (and its CSS) is only needed for a custom period.
const DateRangeInput = lazy(() => import('../../components/DateRangeInput'));

interface Props {
  search: ReportsSearch;
  /** The days shown now (a custom period starts from them). */
  range: ReportRange;
  /** Admins and masters: the sub-reseller filter. */
  withReseller: boolean;
  onChange: (patch: Partial<ReportsSearch>) => void;
}

/** The period (presets or two days) and, for those who have sub-resellers, whose figures. */
export function PeriodFilters({ search, range, withReseller, onChange }: Props) {
  const { t } = useTranslation();
  const period = search.period ?? DEFAULT_PERIOD;
  // A custom range being picked: the URL changes once both days are chosen.
  const [picking, setPicking] = useState<DatesRangeValue<string> | null>(null);

  return (
    <SimpleGrid cols={{ base: 1, sm: withReseller ? 3 : 2 }} spacing="sm" verticalSpacing="sm">
      <Select
        label={t('reports.period')}
        data={PERIODS.map((p) => ({ value: p, label: t(`reports.periods.${p}`) }))}
        value={period}
        allowDeselect={false}
        leftSection={<IconCalendar size={16} />}
        onChange={(v) => {
          if (!v) return;
          setPicking(null);
          // custom starts from the days on screen
          onChange(v === 'custom' ? { period: 'custom', from: range.from, to: range.to } : { period: v as Period, from: undefined, to: undefined });
        }}
        comboboxProps={{ withinPortal: true }}
        data-testid="reports-period"
      />
      {period === 'custom' && (
        <Suspense fallback={<Skeleton h={36} mt={24} />}>
          <DateRangeInput
            label={t('reports.customRange')}
            locale={currentLang() === 'pt-BR' ? 'pt-br' : 'en'}
            value={picking ?? [range.from, range.to]}
            maxDate={dayjs().format(DAY_FORMAT)}
            testId="reports-custom-range"
            onChange={(v) => {
              if (v[0] && v[1]) {
                setPicking(null);
                onChange({ period: 'custom', from: v[0], to: v[1] });
              } else setPicking(v);
            }}
          />
        </Suspense>
      )}
      {withReseller && (
        <ResellerIdPicker
          label={t('reports.reseller')}
          placeholder={t('reports.resellerAll')}
          value={search.reseller}
          onChange={(id) => onChange({ reseller: id })}
          testId="reports-reseller"
        />
      )}
    </SimpleGrid>
  );
}
