import { Badge, Button, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconDeviceTv, IconEye, IconEyeOff, IconMovie } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LatestType } from '../../api/types';
import { formatDateTime } from '../../lib/format';
import { useLatestContent } from './api';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import './texts';

/** Latest content: buttons for the 10 newest movies and series of the catalogue, a show/hide toggle, loading and error states. */
export function LatestContent() {
  const { t } = useTranslation();
  const [type, setType] = useState<LatestType | null>(null);
  const [shown, setShown] = useState(true);
  const query = useLatestContent(type);

  const load = (next: LatestType) => {
    setType(next);
    setShown(true);
  };

  return (
    <Paper withBorder radius="md" p="sm" data-testid="latest-content">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Title order={2} size="h5">
          {t('latestContent.title')}
        </Title>
        <Group gap="xs" wrap="wrap">
          <Button size="xs" variant={type === 'movie' ? 'filled' : 'light'} leftSection={<IconMovie size={16} />} onClick={() => load('movie')} data-testid="latest-movies">
            {t('latestContent.movies')}
          </Button>
          <Button size="xs" variant={type === 'series' ? 'filled' : 'light'} leftSection={<IconDeviceTv size={16} />} onClick={() => load('series')} data-testid="latest-series">
            {t('latestContent.series')}
          </Button>
          {type && (
            <Button
              size="xs"
              variant="subtle"
              color="gray"
              leftSection={shown ? <IconEyeOff size={16} /> : <IconEye size={16} />}
              onClick={() => setShown((s) => !s)}
              aria-expanded={shown}
              aria-controls="latest-content-list"
              data-testid="latest-toggle"
            >
              {shown ? t('latestContent.hide') : t('latestContent.show')}
            </Button>
          )}
        </Group>
      </Group>
      {type && shown && (
        <Stack gap="xs" mt="sm" id="latest-content-list" aria-busy={query.isFetching || undefined} data-testid="latest-list">
          {query.isError ? (
            <LoadErrorAlert onRetry={() => query.refetch()} title={t('latestContent.error')} testId="latest-error" retryTestId="latest-retry" />
          ) : query.isPending ? (
            <Stack gap={6} data-testid="latest-loading">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} h={22} />
              ))}
            </Stack>
          ) : query.data.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="latest-empty">
              {t('latestContent.empty')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={320}>
              <Table striped verticalSpacing={4} fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('latestContent.name')}</Table.Th>
                    <Table.Th>{t('latestContent.category')}</Table.Th>
                    <Table.Th>{t('latestContent.added')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {query.data.map((item) => (
                    <Table.Tr key={item.id} data-testid={`latest-item-${item.id}`}>
                      <Table.Td>{item.name}</Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={type === 'movie' ? 'blue' : 'grape'} style={{ textTransform: 'none' }}>
                          {item.category_name}
                        </Badge>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(item.added)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}
    </Paper>
  );
}
