import { Anchor, Group, Paper, Text, ThemeIcon } from '@mantine/core';
import { IconBellRinging } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { formatNumber } from '../../lib/format';
import { reminderKeys } from '../reminders/queryKeys';
import './texts';

/** "Lembretes enviados hoje": shown to accounts that turned reminders on (or sent some today). */
export function RemindersTodayCard() {
  const { t } = useTranslation();
  const today = useQuery({ queryKey: reminderKeys.today(), queryFn: ({ signal }) => api.GET('/api/reminders/today', { signal, silent: true }), staleTime: 15_000, refetchInterval: 60_000 });
  const d = today.data;
  if (!d || (!d.enabled && d.sent === 0 && d.failed === 0)) return null;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="reminders-today">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" size="lg" radius="md">
            <IconBellRinging size={20} />
          </ThemeIcon>
          <div>
            <Text size="xs" c="dimmed">
              {t('dashboard.remindersToday')}
            </Text>
            <Group gap="xs" align="baseline">
              <Text fw={700} size="lg" data-testid="reminders-today-sent">
                {formatNumber(d.sent)}
              </Text>
              {d.failed > 0 && (
                <Text size="xs" c="red">
                  {t('dashboard.remindersFailed', { count: d.failed })}
                </Text>
              )}
            </Group>
          </div>
        </Group>
        <Anchor component={Link} to="/reminders/history" size="sm" data-testid="reminders-today-history">
          {t('dashboard.remindersHistory')}
        </Anchor>
      </Group>
    </Paper>
  );
}
