import { Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PasswordStrength } from '../../../api/types';
import '../texts';

const LEVELS = [
  { key: 'weak', color: 'red' },
  { key: 'weak', color: 'red' },
  { key: 'fair', color: 'orange' },
  { key: 'good', color: 'teal' },
  { key: 'strong', color: 'green' },
] as const;

/** A bar and a word (fraca / razoável / boa / forte), plus the estimator's warning when weak. */
export function PasswordStrengthMeter({ strength, testId }: { strength: PasswordStrength | null; testId: string }) {
  const { t } = useTranslation();
  if (!strength) return null;
  const level = LEVELS[Math.max(0, Math.min(4, strength.score))] ?? LEVELS[0];
  return (
    <Stack gap={4} data-testid={testId} data-score={strength.score} data-ok={strength.ok ? '1' : '0'}>
      <Progress value={(strength.score + 1) * 20} color={level.color} size="sm" aria-label={t('passwordStrength.label')} />
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="xs" c={level.color} fw={600} data-testid={`${testId}-level`}>
          {t('passwordStrength.label')}: {t(`passwordStrength.levels.${level.key}`)}
        </Text>
        {!strength.ok && (
          <Text size="xs" c="dimmed" ta="right">
            {t('passwordStrength.minimum')}
          </Text>
        )}
      </Group>
      {!strength.ok && strength.warning && (
        <Text size="xs" c="dimmed" data-testid={`${testId}-warning`}>
          {strength.warning}
        </Text>
      )}
    </Stack>
  );
}
