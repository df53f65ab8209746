import { Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** Page title row (the page's one h1) with optional actions on the right (wraps on phones). */
export function PageHeader({ title, actions }: { title: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" align="center" mb="md" gap="sm" wrap="wrap">
      <Title order={1} size="h3">
        {title}
      </Title>
      {actions && <Group gap="xs">{actions}</Group>}
    </Group>
  );
}
