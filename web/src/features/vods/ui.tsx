import { Badge, Group, Text, VisuallyHidden } from '@mantine/core';
import { IconStarFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PENDING } from './api';

export function VodStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={status === PENDING ? 'yellow' : 'green'}>
      {status === PENDING ? t('vods.status.pending') : t('vods.status.added')}
    </Badge>
  );
}

export function Stars({ value }: { value: number }) {
  const { t } = useTranslation();
  return (
    <Group gap={2} wrap="nowrap">
      <IconStarFilled size={12} color="var(--mantine-color-yellow-7)" aria-hidden />
      <Text size="sm">
        <VisuallyHidden>{t('vods.columns.stars')}: </VisuallyHidden>
        {value.toFixed(1)}
      </Text>
    </Group>
  );
}
