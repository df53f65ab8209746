import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SyncState } from '../api/types';

const COLOR: Record<SyncState, string> = { synced: 'teal', pending: 'yellow', failed: 'red' };

/** Delivery state of a P2P account or P2P line to the P2P server; a failure shows its last error. */
export function SyncBadge({ state, error, testId }: { state: SyncState | null | undefined; error?: string | null; testId?: string }) {
  const { t } = useTranslation();
  if (!state) return null;
  const badge = (
    <Badge size="sm" variant="light" color={COLOR[state]} style={{ textTransform: 'none' }} data-testid={testId} data-sync={state}>
      {t(`p2p.sync.${state}`)}
    </Badge>
  );
  const hint = state === 'failed' && error ? error : state === 'pending' ? t('p2p.sync.pendingHint') : null;
  return hint ? (
    <Tooltip label={hint} multiline maw={320} events={{ hover: true, focus: true, touch: true }}>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}
