import { Box, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { ActivityDay } from '../../api/types';
import { useDashboardActivity } from './api';
import { ActivityChartSkeleton } from './ActivityChartSkeleton';
import { formatNumber } from '../../lib/format';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import './texts';

const W = 300;
const H = 90;

/** Tiny dependency-free bar chart (plain SVG): one bar per day, a <title> tooltip per bar. */
function Bars({ days, pick, color, label, testId }: { days: ActivityDay[]; pick: (d: ActivityDay) => number; color: string; label: string; testId: string }) {
  const values = days.map(pick);
  const total = values.reduce((a, b) => a + b, 0);
  const max = Math.max(1, ...values);
  const slot = W / Math.max(days.length, 1);
  const bar = Math.max(slot * 0.7, 1);
  const first = days[0];
  const last = days[days.length - 1];
  return (
    <Stack gap={4} data-testid={testId}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <Text size="sm" fw={700} data-testid={`${testId}-total`}>
          {formatNumber(total)}
        </Text>
      </Group>
      <Box
        component="svg"
        viewBox={`0 0 ${W} ${H}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`${label}: ${formatNumber(total)}`}
        w="100%"
        h={H}
        style={{ display: 'block' }}
      >
        <line x1={0} y1={H - 0.5} x2={W} y2={H - 0.5} stroke="var(--mantine-color-gray-4)" strokeWidth={1} />
        {days.map((d, i) => {
          const v = values[i] ?? 0;
          const h = v === 0 ? 0 : Math.max((v / max) * (H - 4), 2);
          return (
            <rect key={d.date} x={i * slot + (slot - bar) / 2} y={H - h} width={bar} height={h} rx={1} fill={color}>
              <title>{`${dayjs(d.date).format('DD/MM')}: ${formatNumber(v)}`}</title>
            </rect>
          );
        })}
      </Box>
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {first ? dayjs(first.date).format('DD/MM') : ''}
        </Text>
        <Text size="xs" c="dimmed">
          {last ? dayjs(last.date).format('DD/MM') : ''}
        </Text>
      </Group>
    </Stack>
  );
}

/** New lines and credits spent per day over the last 30 days (lazy chunk of the dashboard). */
export default function ActivityChart() {
  const { t } = useTranslation();
  const query = useDashboardActivity();
  if (query.isPending && !query.isError) return <ActivityChartSkeleton />;
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-testid="activity-chart">
      <Title order={2} size="h4" mb="sm">
        {t('dashboard.activity.title')}
      </Title>
      {query.isError || !query.data ? (
        <LoadErrorAlert onRetry={() => query.refetch()} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Bars
            days={query.data}
            pick={(d) => d.new_lines}
            color="var(--mantine-color-blue-6)"
            label={t('dashboard.activity.newLines')}
            testId="activity-new-lines"
          />
          <Bars
            days={query.data}
            pick={(d) => d.credits_spent}
            color="var(--mantine-color-teal-6)"
            label={t('dashboard.activity.creditsSpent')}
            testId="activity-credits"
          />
        </SimpleGrid>
      )}
    </Paper>
  );
}
