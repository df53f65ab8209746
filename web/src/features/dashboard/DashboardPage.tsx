import { Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../api/profile';
import { PHONE_QUERY } from '../../lib/media';
import { ActivityChartSkeleton } from './ActivityChartSkeleton';
import { ExpirationsTable } from './ExpirationsTable';
import { LatestContent } from './LatestContent';
import { NewsBox } from './NewsBox';
import { PublicUrlNotice } from './PublicUrlNotice';
import { PixTodayCard } from './PixTodayCard';
import { RemindersTodayCard } from './RemindersTodayCard';
import { StatCards } from './StatCards';
import './texts';

// The chart is a separate chunk, fetched after the cards and the table render.
const ActivityChart = lazy(() => import('./ActivityChart'));

/**
 * / — welcome, notice, the counters, the latest content, upcoming expirations and the 30-day
 * activity chart. On a phone the chart comes before the expirations (a page of cards, a screen
 * or more), so it is within the first two screens.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const { data } = useProfile();
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const chart = (
    <Suspense fallback={<ActivityChartSkeleton />}>
      <ActivityChart />
    </Suspense>
  );
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
      <RemindersTodayCard />
      <PixTodayCard />
      <LatestContent />
      {phone && chart}
      <ExpirationsTable />
      {!phone && chart}
      {/* last: it appears once the complements arrive and must not push the page down */}
      <PublicUrlNotice />
    </Stack>
  );
}
