import { Badge, Tooltip } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { expiryInfo, expiryText } from '../lib/expiry';
import { formatDateTime } from '../lib/format';

/** Badges in table cells: full label, never cut. */
const BADGE_STYLES = { root: { textTransform: 'none', overflow: 'visible', flexShrink: 0 }, label: { overflow: 'visible', textOverflow: 'clip' } } as const;

/** "Expira hoje / amanhã / em N dias / Expirado" by calendar day (lib/expiry), the exact time in a tooltip. */
export function ExpiryBadge({ expDate, now, testId, size }: { expDate: number; now: number; testId?: string; size?: 'sm' | 'md' }) {
  const { t } = useTranslation();
  const info = expiryInfo(expDate, now);
  const [key, options] = expiryText(info);
  return (
    <Tooltip label={formatDateTime(expDate)}>
      <Badge
        size={size}
        color={info.color}
        variant="light"
        leftSection={info.kind === 'today' ? <IconClock size={12} aria-hidden /> : undefined}
        data-testid={testId}
        data-color={info.color}
        data-kind={info.kind}
        styles={BADGE_STYLES}
      >
        {t(key, options)}
      </Badge>
    </Tooltip>
  );
}
