import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import './texts';

/** Reseller status badge: 1 active (green), anything else blocked (red). */
export function StatusBadge({ status, size }: { status: number; size?: 'xs' | 'sm' | 'md' }) {
  const { t } = useTranslation();
  return status === 1 ? (
    <Badge color="green" variant="light" size={size}>
      {t('resellers.status.active')}
    </Badge>
  ) : (
    <Badge color="red" variant="light" size={size}>
      {t('resellers.status.blocked')}
    </Badge>
  );
}
