import { Anchor, Group, Paper, Text, ThemeIcon } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useProfile } from '../../api/profile';
import { creditSaleKeys } from '../creditsales/queryKeys';
import './texts';

/** Credit sales paid by sub-resellers and waiting for this account's credits: shown to sellers (masters, admins) only when there are some. */
export function CreditSalesCard() {
  const { t } = useTranslation();
  const profile = useProfile();
  const navigate = useNavigate();
  const seller = profile.data?.type === 'master' || profile.data?.type === 'admin';
  const q = useQuery({ queryKey: creditSaleKeys.summary(), enabled: seller, queryFn: ({ signal }) => api.GET('/api/credit-sales/summary', { signal, silent: true }), staleTime: 15_000, refetchInterval: 60_000 });
  const n = q.data?.awaiting_credits ?? 0;
  if (!seller || n === 0) return null;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="credit-sales-awaiting">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" color="orange" size="lg" radius="md">
            <IconCoins size={20} />
          </ThemeIcon>
          <div>
            <Text fw={700} size="sm" data-testid="credit-sales-awaiting-count">
              {t('dashboard.creditSalesAwaiting', { count: n })}
            </Text>
            <Text size="xs" c="dimmed">
              {t('dashboard.creditSalesAwaitingHelp')}
            </Text>
          </div>
        </Group>
        <Anchor component="button" type="button" size="sm" onClick={() => void navigate({ to: '/credit-purchases', search: { direction: 'sold', status: 'paid_awaiting_credits' } })}>
          {t('dashboard.creditSalesOpen')}
        </Anchor>
      </Group>
    </Paper>
  );
}
