import { Badge, Button, Card, Group, Image, Loader, Modal, Stack, Text, Textarea, TextInput, VisuallyHidden } from '@mantine/core';
import { notifySuccess, toast } from '../../api/notify';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMovie, IconSearch, IconStarFilled } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import i18n from '../../i18n';
import { useCatalogueSearch, useRequestTitle } from './api';
import type { CatalogueTitle } from '../../api/types';

/** The search failing: not configured, the catalogue down, or the connection. */
export function searchErrorText(e: unknown): string {
  if (isApiError(e) && e.code === 'NOT_CONFIGURED') return i18n.t('vods.search.notConfigured');
  if (isApiError(e) && e.status === 0) return i18n.t('errors.COMMUNICATION');
  return i18n.t('vods.search.unavailable');
}

/** A refused request, toasted with the request dialogs' fixed text (their calls are silent). */
export const notifyRequestError = (text: string) => toast({ color: 'red', title: i18n.t('common.error'), message: text });

/** Why a request was refused (the request dialogs' fixed texts). */
export function requestErrorText(e: unknown): string {
  if (isApiError(e) && e.status === 0) return i18n.t('errors.COMMUNICATION');
  return i18n.t('vods.refused');
}

/** 'Search the catalogue' (masters and admins): query -> results -> request one with notes; or ask by name (`onManual`). */
export function CatalogueSearchModal({ opened, onClose, onManual }: { opened: boolean; onClose: () => void; onManual: () => void }) {
  const { t } = useTranslation();
  const form = useForm({ initialValues: { q: '', notes: '' } });
  const { q, notes } = form.values;
  const [debounced] = useDebouncedValue(q.trim(), 500);
  const search = useCatalogueSearch(debounced);
  const [picked, setPicked] = useState<CatalogueTitle | null>(null);
  const requestTitle = useRequestTitle();

  const request = async () => {
    if (!picked) return;
    const body = { movie_id: picked.movie_id, media_type: picked.media_type, title: picked.title, year: picked.year, stars: picked.stars, image_link: picked.image_link, observacoes: notes.trim() || undefined, status: '1' as const };
    try {
      await requestTitle.mutateAsync(body);
    } catch (e) {
      // the call is silent: a refusal is toasted with the dialog's fixed text
      notifyRequestError(requestErrorText(e));
      return;
    }
    notifySuccess(t('vods.requested'));
    setPicked(null);
    form.setFieldValue('notes', '');
    onClose();
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('vods.search.open')} size="lg" centered data-testid="vod-search-modal">
      {picked ? (
        <Stack gap="sm">
          <TitleCard title={picked} />
          <Textarea label={t('vods.notes')} maxLength={1000} autosize minRows={2} {...form.getInputProps('notes')} data-testid="vod-notes" />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setPicked(null)}>
              {t('common.back')}
            </Button>
            <Button loading={requestTitle.isPending} onClick={() => void request()} data-testid="vod-request-submit">
              {t('vods.request')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <TextInput
            label={t('vods.search.query')}
            placeholder={t('vods.search.placeholder')}
            leftSection={<IconSearch size={16} />}
            rightSection={search.isFetching ? <Loader size="xs" /> : null}
            {...form.getInputProps('q')}
            maxLength={100}
            data-autofocus
            data-testid="vod-search-input"
          />
          {search.isError && (
            <LoadErrorAlert onRetry={search.refetch} title={searchErrorText(search.error)} testId="vod-search-error" />
          )}
          {search.data?.length === 0 && !search.isFetching && (
            <Text size="sm" c="dimmed" data-testid="vod-search-empty">
              {t('vods.search.empty')}
            </Text>
          )}
          {(search.isError || search.data?.length === 0) && !search.isFetching && (
            <Group justify="flex-start">
              <Button variant="subtle" size="xs" onClick={onManual} data-testid="vod-search-manual">
                {t('vods.manual.notFound')}
              </Button>
            </Group>
          )}
          <Stack gap="xs" data-testid="vod-search-results">
            {(search.data ?? []).map((title) => (
              <TitleCard
                key={`${title.media_type}-${title.movie_id}`}
                title={title}
                action={
                  <Button size="xs" variant="light" onClick={() => setPicked(title)} data-testid={`vod-pick-${title.movie_id}`} aria-label={t('vods.requestTitle', { title: title.title })}>
                    {t('vods.request')}
                  </Button>
                }
              />
            ))}
          </Stack>
        </Stack>
      )}
    </Modal>
  );
}

export function Poster({ src, alt }: { src: string | null; alt: string }) {
  return src ? (
    <Image src={src} alt={alt} w={46} h={69} radius="sm" fit="cover" loading="lazy" />
  ) : (
    <Stack w={46} h={69} align="center" justify="center" bg="var(--mantine-color-default-hover)" style={{ borderRadius: 4, flexShrink: 0 }} aria-hidden>
      <IconMovie size={20} />
    </Stack>
  );
}

function TitleCard({ title, action }: { title: CatalogueTitle; action?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="xs" radius="sm" data-testid={`vod-result-${title.movie_id}`}>
      <Group wrap="nowrap" gap="sm" align="center">
        <Poster src={title.image_link} alt={t('vods.poster', { title: title.title })} />
        <Stack gap={2} miw={0} style={{ flex: 1 }}>
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {title.title}
          </Text>
          <Group gap={6}>
            <Text size="xs" c="dimmed">
              {title.year || '—'}
            </Text>
            <Badge size="xs" variant="light" color="gray">
              {t(`vods.mediaType.${title.media_type}`)}
            </Badge>
            <Group gap={2}>
              <IconStarFilled size={12} color="var(--mantine-color-yellow-7)" aria-hidden />
              <Text size="xs">
                <VisuallyHidden>{t('vods.columns.stars')}: </VisuallyHidden>
                {title.stars.toFixed(1)}
              </Text>
            </Group>
          </Group>
        </Stack>
        {action}
      </Group>
    </Card>
  );
}
