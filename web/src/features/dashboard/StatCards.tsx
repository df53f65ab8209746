import { Alert, Badge, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBroadcast,
  IconClockPlay,
  IconDeviceTv,
  IconFlask,
  IconPlugConnected,
  IconShare,
  IconUserCheck,
  IconUserPlus,
  IconUsers,
  IconUsersGroup,
  IconWifi,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { Dashboard } from '../../api/types';
import { useDashboardCounters } from './api';
import { formatNumber } from '../../lib/format';

/** Card keys in SPEC order; `users_onlinep2p` has no server figure until the P2P integration exists. */
export const CARD_KEYS = [
  'resellers',
  'users',
  'users_active',
  'users_activep2p',
  'users_activehttp',
  'users_online_of_resellers',
  'users_online',
  'users_onlinep2p',
  'conections_online',
  'users_new',
  'users_trial',
  'users_trialp2p',
] as const;
export type CardKey = (typeof CARD_KEYS)[number];

type IconType = ComponentType<{ size?: number | string; stroke?: number }>;

const CARDS: Record<CardKey, { icon: IconType; color: string }> = {
  resellers: { icon: IconUsersGroup, color: 'indigo' },
  users: { icon: IconUsers, color: 'blue' },
  users_active: { icon: IconUserCheck, color: 'teal' },
  users_activep2p: { icon: IconShare, color: 'grape' },
  users_activehttp: { icon: IconDeviceTv, color: 'cyan' },
  users_online_of_resellers: { icon: IconBroadcast, color: 'orange' },
  users_online: { icon: IconWifi, color: 'green' },
  users_onlinep2p: { icon: IconWifi, color: 'gray' },
  conections_online: { icon: IconPlugConnected, color: 'lime' },
  users_new: { icon: IconUserPlus, color: 'blue' },
  users_trial: { icon: IconClockPlay, color: 'yellow' },
  users_trialp2p: { icon: IconFlask, color: 'pink' },
};

/** The figure of a card; null when the server has none (P2P online list not integrated). */
function figure(data: Dashboard, key: CardKey): number | null {
  return key === 'users_onlinep2p' ? null : data[key];
}

function StatCard({ cardKey, data, loading }: { cardKey: CardKey; data?: Dashboard; loading: boolean }) {
  const { t } = useTranslation();
  const { icon: Icon, color } = CARDS[cardKey];
  const value = data ? figure(data, cardKey) : null;
  const notConfigured = cardKey === 'users_onlinep2p';
  return (
    <Paper withBorder radius="md" p="sm" data-testid={`card-${cardKey}`} aria-busy={loading || undefined}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" color={color} size={36} radius="md" visibleFrom="xs">
          <Icon size={20} stroke={1.7} />
        </ThemeIcon>
        <Stack gap={2} miw={0} style={{ flex: 1 }}>
          <Text size="xs" c="dimmed" fw={600} lh={1.25} data-testid={`card-${cardKey}-label`}>
            {t(`dashboard.cards.${cardKey}`)}
          </Text>
          {loading ? (
            <Skeleton h={26} w="55%" mt={2} />
          ) : (
            <Group gap={6} align="baseline" wrap="wrap">
              <Text fz={24} fw={700} lh={1.15} data-testid={`card-${cardKey}-value`}>
                {data ? formatNumber(value ?? 0) : '—'}
              </Text>
              {notConfigured && (
                <Badge size="xs" variant="light" color="gray" style={{ textTransform: 'none' }} data-testid={`card-${cardKey}-hint`}>
                  {t('dashboard.notConfigured')}
                </Badge>
              )}
            </Group>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}

/** The twelve dashboard counters (skeletons while loading, retry on error). */
export function StatCards() {
  const { t } = useTranslation();
  const query = useDashboardCounters();
  return (
    <Stack gap="sm">
      {query.isError && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t('common.loadError')} data-testid="cards-error">
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing={{ base: 'xs', sm: 'sm' }} data-testid="dashboard-cards">
        {CARD_KEYS.map((key) => (
          <StatCard key={key} cardKey={key} data={query.data} loading={query.isPending && !query.isError} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
