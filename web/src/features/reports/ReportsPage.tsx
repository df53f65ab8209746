import { Button, Skeleton, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../api/profile';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { PageHeader } from '../../components/PageHeader';
import { currentLang } from '../../i18n';
import { formatDay } from '../../lib/format';
import { useSalesReport } from './api';
import { csvFileName, downloadText, salesCsv } from './csv';
import type { Figure } from './figures';
import { reportRange } from './period';
import { PeriodFilters } from './PeriodFilters';
import { type ReportsSearch, reportsSearch } from './search';
import { TopResellers } from './TopResellers';
import { Totals } from './Totals';
import './texts';

// The charts (@mantine/charts and recharts) are a chunk of their own, fetched once the page is up:
// the route's first load stays within its budget (scripts/bundle-budget.mjs).
const ReportCharts = lazy(() => import('./ReportCharts'));

/**
 * /reports — the business over a period: its totals, charts of sales and renewals, credits, PIX and
 * expired lines, a CSV of the bars, and (admins and masters) the best direct sub-resellers.
 */
export function ReportsPage() {
  const { t } = useTranslation();
  const raw = useSearch({ strict: false }) as Record<string, unknown>;
  const search = useMemo(() => reportsSearch(raw), [raw]);
  const navigate = useNavigate();
  const type = useProfile().data?.type;
  const managesResellers = type !== undefined && type !== 'reseller';
  const range = reportRange(search);
  const reseller = managesResellers ? search.reseller : undefined;
  const query = useSalesReport({ ...range, reseller_id: reseller });
  const report = query.data;

  // undefined in `patch` removes that param; the default period stays out of the URL
  const setSearch = (patch: Partial<ReportsSearch>) => void navigate({ to: '.', search: ((prev: Record<string, unknown>) => reportsSearch({ ...prev, ...patch })) as never });

  const exportCsv = () => {
    if (!report) return;
    const name = (column: 'start' | Figure) => (column === 'start' ? t('reports.start') : t(`reports.figures.${column}`));
    downloadText(salesCsv(report, name, currentLang()), csvFileName(t('reports.csvPrefix'), report));
  };

  return (
    <Stack gap="md">
      <div>
        <PageHeader
          title={t('reports.title')}
          actions={
            <Button variant="default" leftSection={<IconDownload size={18} />} disabled={!report} onClick={exportCsv} data-testid="reports-export-csv">
              {t('reports.exportCsv')}
            </Button>
          }
        />
        <Text size="sm" c="dimmed" mt={-8}>
          {t('reports.help')}
        </Text>
      </div>
      <PeriodFilters search={search} range={range} withReseller={managesResellers} onChange={setSearch} />
      {report && (
        <Text size="sm" c="dimmed" data-testid="reports-range">
          {t('reports.rangeSummary', { from: formatDay(report.from), to: formatDay(report.to), bucket: t(`reports.buckets.${report.bucket}`) })}
        </Text>
      )}
      {query.isError && !report ? (
        <LoadErrorAlert onRetry={() => query.refetch()} testId="reports-error" />
      ) : (
        <>
          <Totals totals={report?.totals} fetching={query.isPlaceholderData} />
          {report ? (
            <Suspense fallback={<Skeleton h={920} radius="md" />}>
              <ReportCharts report={report} fetching={query.isPlaceholderData} />
            </Suspense>
          ) : (
            <Skeleton h={920} radius="md" />
          )}
        </>
      )}
      {managesResellers && <TopResellers from={range.from} to={range.to} />}
    </Stack>
  );
}
