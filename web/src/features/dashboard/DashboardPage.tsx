import { Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../api/profile';
import { ActivityChartSkeleton } from './ActivityChartSkeleton';
import { ExpirationsTable } from './ExpirationsTable';
import { LatestContent } from './LatestContent';
import { NewsBox } from './NewsBox';
import { PublicUrlNotice } from './PublicUrlNotice';
import { PixTodayCard } from './PixTodayCard';
import { CreditSalesCard } from './CreditSalesCard';
import { RemindersTodayCard } from './RemindersTodayCard';
import { StatCards } from './StatCards';
import './texts';

// The chart is a separate chunk; the route's loader (prefetch.ts) starts loading it with the page's data.
const ActivityChart = lazy(() => import('./ActivityChart'));

/**
 * / — welcome, notice, the counters, then the 30-day activity chart (right after the cards, so a
 * phone sees it within its first two screens), reminders and PIX of the day, the latest content
 * and upcoming expirations.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const { data } = useProfile();
  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h3" data-testid="home-welcome">
          {t('home.welcome', { username: data?.username ?? '' })}
        </Title>
        <Text c="dimmed" size="sm">
          {t('dashboard.subtitle')}
        </Text>
      </div>
      <NewsBox />
      <StatCards />
      <Suspense fallback={<ActivityChartSkeleton />}>
        <ActivityChart />
      </Suspense>
      <RemindersTodayCard />
      <PixTodayCard />
      <CreditSalesCard />
      <LatestContent />
      <ExpirationsTable />
      {/* last: it appears once the complements arrive and must not push the page down */}
      <PublicUrlNotice />
    </Stack>
  );
}
