import { Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import {
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
import { isApiError } from '../../api/errors';
import { useP2pConfigured } from '../../api/complements';
import { useP2pOnline } from '../../api/p2pOnline';
import { useProfile } from '../../api/profile';
import { useDashboardCounters } from './api';
import { formatNumber } from '../../lib/format';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import './texts';

/** Card keys in display order; `users_onlinep2p` is the length of the P2P server's online list. */
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

/** The cards about sub-resellers: not shown to a plain reseller, who cannot have any. */
const RESELLER_CARDS: readonly CardKey[] = ['resellers', 'users_online_of_resellers'];

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

interface CardProps {
  cardKey: CardKey;
  value: number | undefined;
  loading: boolean;
  /** The figure's outside system is not configured (shown as a hint next to '—'). */
  notConfigured?: boolean;
}

function StatCard({ cardKey, value, loading, notConfigured = false }: CardProps) {
  const { t } = useTranslation();
  const { icon: Icon, color } = CARDS[cardKey];
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
                {value !== undefined ? formatNumber(value) : '—'}
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

/** The dashboard counters (skeletons while loading, retry on error); the resellers' two once the profile says the account may have resellers. */
export function StatCards() {
  const query = useDashboardCounters();
  const type = useProfile().data?.type;
  const keys = type && type !== 'reseller' ? CARD_KEYS : CARD_KEYS.filter((k) => !RESELLER_CARDS.includes(k));
  return (
    <Stack gap="sm">
      {query.isError && (
        <LoadErrorAlert onRetry={() => query.refetch()} testId="cards-error" />
      )}
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 4 }} spacing={{ base: 'xs', sm: 'sm' }} data-testid="dashboard-cards">
        {keys.map((key) =>
          key === 'users_onlinep2p' ? (
            <P2pOnlineCard key={key} />
          ) : (
            <StatCard key={key} cardKey={key} value={query.data?.[key]} loading={query.isPending && !query.isError} />
          ),
        )}
      </SimpleGrid>
    </Stack>
  );
}

/** Online P2P users: the count of the P2P server's online list (refreshed with it every 15 s). */
function P2pOnlineCard() {
  // Without the P2P server there is no list to ask for: the card says so, no request.
  const configured = useP2pConfigured();
  const online = useP2pOnline(configured === true);
  const notConfigured = configured === false || (isApiError(online.error) && online.error.code === 'NOT_CONFIGURED');
  return <StatCard cardKey="users_onlinep2p" value={online.data?.length} loading={!notConfigured && online.isPending} notConfigured={notConfigured} />;
}
