import { Paper, SimpleGrid, Skeleton } from '@mantine/core';

/** Skeleton of the chart box (also the Suspense fallback while the chunk loads). */
export function ActivityChartSkeleton() {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-testid="activity-loading">
      <Skeleton h={20} w={220} mb="sm" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Skeleton h={120} />
        <Skeleton h={120} />
      </SimpleGrid>
    </Paper>
  );
}
