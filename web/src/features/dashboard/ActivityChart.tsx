import { Anchor, Box, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { SalesBucket } from '../../api/types';
import { useDashboardActivity } from './api';
import { ActivityChartSkeleton } from './ActivityChartSkeleton';
import { formatNumber } from '../../lib/format';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import './texts';

const W = 300;
const H = 90;

interface Series {
  label: string;
  color: string;
  pick: (d: SalesBucket) => number;
  testId: string;
}

/**
 * Tiny dependency-free bar chart (plain SVG, no chart library on the dashboard: first-load budget):
 * one group of bars per day, the series side by side, a <title> tooltip per bar, each series'
 * total in the legend above it.
 */
function Bars({ days, series, label, testId }: { days: SalesBucket[]; series: Series[]; label: string; testId: string }) {
  const values = series.map((s) => days.map(s.pick));
  const totals = values.map((v) => v.reduce((a, b) => a + b, 0));
  const max = Math.max(1, ...values.flat());
  const slot = W / Math.max(days.length, 1);
  const bar = Math.max((slot * 0.8) / series.length, 1);
  const first = days[0];
  const last = days[days.length - 1];
  const summary = series.map((s, i) => `${s.label}: ${formatNumber(totals[i])}`).join(', ');
  return (
    <Stack gap={4} data-testid={testId}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        {series.map((s, i) => (
          <Group key={s.testId} gap={6} wrap="nowrap">
            <Box w={10} h={10} style={{ borderRadius: 2, background: s.color, flexShrink: 0 }} />
            <Text size="sm" fw={600}>
              {s.label}
            </Text>
            <Text size="sm" fw={700} data-testid={`${s.testId}-total`}>
              {formatNumber(totals[i])}
            </Text>
          </Group>
        ))}
      </Group>
      <Box
        component="svg"
        viewBox={`0 0 ${W} ${H}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`${label}: ${summary}`}
        w="100%"
        h={H}
        style={{ display: 'block' }}
      >
        <line x1={0} y1={H - 0.5} x2={W} y2={H - 0.5} stroke="var(--mantine-color-gray-4)" strokeWidth={1} />
        {days.map((d, i) =>
          series.map((s, j) => {
            const v = values[j]?.[i] ?? 0;
            const h = v === 0 ? 0 : Math.max((v / max) * (H - 4), 2);
            const x = i * slot + (slot - bar * series.length) / 2 + j * bar;
            return (
              <rect key={`${d.start}-${s.testId}`} x={x} y={H - h} width={bar} height={h} rx={1} fill={s.color}>
                <title>{`${dayjs(d.start).format('DD/MM')} · ${s.label}: ${formatNumber(v)}`}</title>
              </rect>
            );
          }),
        )}
      </Box>
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {first ? dayjs(first.start).format('DD/MM') : ''}
        </Text>
        <Text size="xs" c="dimmed">
          {last ? dayjs(last.start).format('DD/MM') : ''}
        </Text>
      </Group>
    </Stack>
  );
}

/**
 * New lines (paid and trials) with the renewals beside them, and credits spent, per day over the
 * last 30 days (lazy chunk of the dashboard), with a link to the reports page for other periods.
 */
export default function ActivityChart() {
  const { t } = useTranslation();
  const query = useDashboardActivity();
  if (query.isPending && !query.isError) return <ActivityChartSkeleton />;
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-testid="activity-chart">
      <Group justify="space-between" align="baseline" gap="xs" mb="sm" wrap="nowrap">
        <Title order={2} size="h4">
          {t('dashboard.activity.title')}
        </Title>
        <Anchor component={Link} to="/reports" size="sm" data-testid="activity-reports-link">
          {t('dashboard.activity.seeReports')}
        </Anchor>
      </Group>
      {query.isError || !query.data ? (
        <LoadErrorAlert onRetry={() => query.refetch()} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Bars
            days={query.data}
            label={t('dashboard.activity.salesLabel')}
            testId="activity-sales"
            series={[
              { label: t('dashboard.activity.newLines'), color: 'var(--mantine-color-blue-6)', pick: (d) => d.lines_created + d.trials_created, testId: 'activity-new-lines' },
              { label: t('dashboard.activity.renewals'), color: 'var(--mantine-color-orange-6)', pick: (d) => d.renewals, testId: 'activity-renewals' },
            ]}
          />
          <Bars
            days={query.data}
            label={t('dashboard.activity.creditsSpent')}
            testId="activity-credits-chart"
            series={[{ label: t('dashboard.activity.creditsSpent'), color: 'var(--mantine-color-teal-6)', pick: (d) => d.credits_spent, testId: 'activity-credits' }]}
          />
        </SimpleGrid>
      )}
    </Paper>
  );
}
