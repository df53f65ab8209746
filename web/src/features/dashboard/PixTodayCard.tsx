import { Anchor, Group, Paper, Text, ThemeIcon } from '@mantine/core';
import { IconCash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { formatMoney } from '../../lib/format';
import { paymentKeys } from '../payments/queryKeys';
import './texts';

/** PIX received today and this month, and payments waiting for credits: shown to accounts that take PIX. */
export function PixTodayCard() {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: paymentKeys.summary(), queryFn: ({ signal }) => api.GET('/api/payments/summary', { signal, silent: true }), staleTime: 15_000, refetchInterval: 60_000 });
  const d = q.data;
  if (!d || (!d.enabled && d.month.count === 0 && d.awaiting_credits === 0)) return null;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="pix-today">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" color="teal" size="lg" radius="md">
            <IconCash size={20} />
          </ThemeIcon>
          <div>
            <Text size="xs" c="dimmed">
              {t('dashboard.pixToday')}
            </Text>
            <Text fw={700} size="lg" data-testid="pix-today-amount">
              {formatMoney(d.today.cents)}
            </Text>
            <Text size="xs" c="dimmed">
              {t('dashboard.pixMonth', { amount: formatMoney(d.month.cents) })}
            </Text>
            {d.awaiting_credits > 0 && (
              <Text size="xs" c="orange" data-testid="pix-awaiting">
                {t('dashboard.pixAwaiting', { count: d.awaiting_credits })}
              </Text>
            )}
          </div>
        </Group>
        <Anchor component={Link} to="/payments" size="sm">
          {t('dashboard.remindersHistory')}
        </Anchor>
      </Group>
    </Paper>
  );
}
