import '@mantine/charts/styles.layer.css';
// the charts' legend and tooltip swatches (a component the rest of the app does not use: not in signed-in.css)
import '@mantine/core/styles/ColorSwatch.layer.css';
import { BarChart, type BarChartSeries } from '@mantine/charts';
import { Paper, SimpleGrid, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SalesReport } from '../../api/types';
import { formatDay, formatMoney, formatNumber } from '../../lib/format';
import { type Figure, isMoney } from './figures';
import { bucketLabel } from './period';
import './texts';

interface ChartSpec {
  id: 'sales' | 'credits' | 'pix' | 'expired';
  series: (BarChartSeries & { name: Figure })[];
}

/** The charts, each the figures it draws: new lines (paid with trials stacked on them) beside the renewals; then one figure each. */
const CHARTS: readonly ChartSpec[] = [
  {
    id: 'sales',
    series: [
      { name: 'lines_created', color: 'blue.6', stackId: 'new' },
      { name: 'trials_created', color: 'cyan.4', stackId: 'new' },
      { name: 'renewals', color: 'orange.6' },
    ],
  },
  { id: 'credits', series: [{ name: 'credits_spent', color: 'teal.6' }] },
  { id: 'pix', series: [{ name: 'pix_received_cents', color: 'green.7' }] },
  { id: 'expired', series: [{ name: 'expired', color: 'red.6' }] },
];

const format = (f: Figure, v: number) => (isMoney(f) ? formatMoney(v * 100) : formatNumber(v));

interface Props {
  report: SalesReport;
  /** The next period is loading: the shown one is dimmed. */
  fetching: boolean;
}

/**
 * The period's bars (@mantine/charts; a lazy chunk of the reports page). Each chart is hidden from
 * screen readers, which read the table beside it instead (visually hidden): the same figures, one
 * row per bar.
 */
export default function ReportCharts({ report, fetching }: Props) {
  const { t } = useTranslation();
  // reais, not cents, for the PIX axis and tooltip
  const data = report.series.map((b) => ({ ...b, label: bucketLabel(b.start, report.bucket), pix_received_cents: b.pix_received_cents / 100 }));
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" style={{ opacity: fetching ? 0.6 : 1 }} data-testid="report-charts">
      {CHARTS.map((chart) => {
        const title = t(`reports.charts.${chart.id}`);
        const money = chart.series.some((s) => isMoney(s.name));
        const series = chart.series.map((s) => ({ ...s, label: t(`reports.figures.${s.name}`) }));
        return (
          <Paper key={chart.id} withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-testid={`report-chart-${chart.id}`} data-bars={data.length}>
            <Title order={2} size="h4" mb="sm">
              {title}
            </Title>
            <div aria-hidden="true">
              <BarChart
                h={200}
                data={data}
                dataKey="label"
                series={series}
                withLegend={series.length > 1}
                maxBarWidth={28}
                // no keyboard layer: the chart is hidden from assistive technology (its table is read instead)
                accessibilityLayer={false}
                valueFormatter={(v) => (money ? formatMoney(v * 100) : formatNumber(v))}
                yAxisProps={{ width: money ? 52 : 36, allowDecimals: false, tickFormatter: (v: number) => formatNumber(v) }}
              />
            </div>
            <VisuallyHidden>
              <table data-testid={`report-table-${chart.id}`}>
                <caption>{t('reports.charts.tableCaption', { title, from: formatDay(report.from), to: formatDay(report.to) })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('reports.start')}</th>
                    {series.map((s) => (
                      <th key={s.name} scope="col">
                        {s.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.map((row) => (
                    <tr key={row.start}>
                      <th scope="row">{formatDay(row.start)}</th>
                      {series.map((s) => (
                        <td key={s.name}>{format(s.name, row[s.name])}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </VisuallyHidden>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
