import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Yes/No badge for 0|1 flags (green Yes, gray No). */
export function YesNoBadge({ value }: { value: number | boolean }) {
  const { t } = useTranslation();
  const yes = value === true || value === 1;
  return (
    <Badge variant="light" color={yes ? 'green' : 'gray'}>
      {yes ? t('common.yes') : t('common.no')}
    </Badge>
  );
}
