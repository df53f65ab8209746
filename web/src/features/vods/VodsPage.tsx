import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconInfoCircle, IconPencilPlus, IconSquarePlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import type { ResponsiveColumn } from '../../components/table/ResponsiveTable';
import { useVodListState, VodFilterInput, VodTable } from './VodTable';
import { formatDateTime } from '../../lib/format';
import { useProfile } from '../../api/profile';
import { useCatalogueSearchStatus, useVodRequests } from './api';
import { CatalogueSearchModal, Poster } from './CatalogueSearchModal';
import { ManualRequestModal } from './ManualRequestModal';
import { Stars, VodStatusBadge } from './ui';
import type { VodRequest } from '../../api/types';

/**
 * /vods (masters and admins, who may ask: docs/rules.md) — the content requests, the catalogue
 * search when it is configured, and a title typed by hand always.
 */
export function VodsPage() {
  const { t } = useTranslation();
  const listState = useVodListState();
  const [open, setOpen] = useState<'search' | 'manual' | null>(null);
  const list = useVodRequests({ search: listState.debounced || undefined, page: listState.page, per_page: listState.per });
  const status = useCatalogueSearchStatus(true);
  const searchOff = status.data?.configured === false;
  const isAdmin = useProfile().data?.type === 'admin';

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
          <Group gap="xs">
            {status.data?.configured && (
              <Button leftSection={<IconSquarePlus size={18} />} onClick={() => setOpen('search')} data-testid="vod-search-open">
                {t('vods.search.open')}
              </Button>
            )}
            <Button variant={searchOff ? 'filled' : 'default'} leftSection={<IconPencilPlus size={18} />} onClick={() => setOpen('manual')} data-testid="vod-manual-open">
              {t('vods.manual.open')}
            </Button>
          </Group>
        }
      />
      {searchOff && (
        <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} />} title={t('vods.search.offTitle')} data-testid="vod-search-off">
          {isAdmin ? t('vods.search.offAdmin') : t('vods.search.off')}
        </Alert>
      )}
      <Group>
        <VodFilterInput state={listState} w={{ base: '100%', xs: 320 }} />
      </Group>
      <VodTable columns={columns} list={list} testId="vods-table" state={listState} />
      <CatalogueSearchModal opened={open === 'search'} onClose={() => setOpen(null)} onManual={() => setOpen('manual')} />
      <ManualRequestModal opened={open === 'manual'} onClose={() => setOpen(null)} />
    </Stack>
  );
}
