import { Stack, Text } from '@mantine/core';

/** A figure under its small label, as the dialogs show what an action will change (screens, a removal's counts). */
export function Stat({ label, value, testId, centered = false }: { label: string; value: number | string; testId?: string; centered?: boolean }) {
  return (
    <Stack gap={0} align={centered ? 'center' : undefined}>
      <Text size="xs" c="dimmed" ta={centered ? 'center' : undefined}>
        {label}
      </Text>
      <Text fw={700} size={centered ? 'xl' : undefined} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}
