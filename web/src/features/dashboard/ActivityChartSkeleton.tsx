import { Paper, SimpleGrid, Skeleton } from '@mantine/core';

/**
 * Skeleton of the chart box (also the Suspense fallback while the chunk loads), as tall as the
 * chart it stands for (title 22 px, each bar block 139 px), so nothing below it moves.
 */
export function ActivityChartSkeleton() {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-testid="activity-loading">
      <Skeleton h={22} w={220} mb="sm" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Skeleton h={139} />
        <Skeleton h={139} />
      </SimpleGrid>
    </Paper>
  );
}
