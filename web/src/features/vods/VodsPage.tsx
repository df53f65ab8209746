import { Button, Group, Stack, Text } from '@mantine/core';
import { IconSquarePlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import type { ResponsiveColumn } from '../../components/table/ResponsiveTable';
import { useVodListState, VodFilterInput, VodTable } from './VodTable';
import { formatDateTime } from '../../lib/format';
import { useProfile } from '../../api/profile';
import { useVodRequests } from './api';
import { CatalogueSearchModal, Poster } from './CatalogueSearchModal';
import { Stars, VodStatusBadge } from './ui';
import type { VodRequest } from '../../api/types';

/** /vods — the content requests (everyone), and the catalogue search for masters and admins. */
export function VodsPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const listState = useVodListState();
  const [open, setOpen] = useState(false);
  const list = useVodRequests({ search: listState.debounced || undefined, page: listState.page, per_page: listState.per });
  const canAsk = profile.data?.type === 'admin' || profile.data?.type === 'master';

  const columns: ResponsiveColumn<VodRequest>[] = [
    { accessor: 'image_link', title: t('vods.columns.poster'), width: 64, card: 'none', render: (r) => <Poster src={r.image_link} alt={t('vods.poster', { title: r.title })} /> },
    { accessor: 'title', title: t('vods.columns.title'), card: 'title', render: (r) => <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>{r.title}</Text> },
    { accessor: 'year', title: t('vods.columns.year'), noWrap: true },
    { accessor: 'media_type', title: t('vods.columns.type'), noWrap: true, visibleFrom: 'md', render: (r) => t(`vods.mediaType.${r.media_type}`) },
    { accessor: 'stars', title: t('vods.columns.stars'), noWrap: true, render: (r) => <Stars value={r.stars} /> },
    { accessor: 'status', title: t('vods.columns.status'), noWrap: true, render: (r) => <VodStatusBadge status={r.status} /> },
    { accessor: 'created_at', title: t('vods.columns.created'), noWrap: true, visibleFrom: 'lg', render: (r) => formatDateTime(r.created_at) },
  ];

  return (
    <Stack gap="sm">
      <PageHeader
        title={t('vods.title')}
        actions={
          canAsk && (
            <Button leftSection={<IconSquarePlus size={18} />} onClick={() => setOpen(true)} data-testid="vod-search-open">
              {t('vods.search.open')}
            </Button>
          )
        }
      />
      <Group>
        <VodFilterInput state={listState} w={{ base: '100%', xs: 320 }} />
      </Group>
      <VodTable columns={columns} list={list} testId="vods-table" state={listState} />
      {canAsk && <CatalogueSearchModal opened={open} onClose={() => setOpen(false)} />}
    </Stack>
  );
}
