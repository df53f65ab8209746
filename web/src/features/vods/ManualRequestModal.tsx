import { Button, Group, Modal, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, isApiError } from '../../api/errors';
import { notifyError, notifySuccess } from '../../api/notify';
import { useRequestByHand } from './api';

const YEAR_RE = /^(\d{4})?$/;

/** Whether a typed title and year can be sent (the server's rules: a title with a letter, a 4-digit year or none). */
export function manualRequestErrors(title: string, year: string): { title?: 'required'; year?: 'invalid' } {
  return { ...(title.trim() ? {} : { title: 'required' as const }), ...(YEAR_RE.test(year.trim()) ? {} : { year: 'invalid' as const }) };
}

/** 'Ask by name' (masters and admins): a title typed by hand, when the catalogue search is off or does not find it. */
export function ManualRequestModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [title, setTitle] = useState('');
  const [kind, setKind] = useState<'movie' | 'tv'>('movie');
  const [year, setYear] = useState('');
  const [notes, setNotes] = useState('');
  const [touched, setTouched] = useState(false);
  const requestByHand = useRequestByHand();
  const errors = manualRequestErrors(title, year);

  const submit = async () => {
    setTouched(true);
    if (errors.title || errors.year) return;
    try {
      await requestByHand.mutateAsync({ title: title.trim(), media_type: kind, year: year.trim() || undefined, observacoes: notes.trim() || undefined });
      notifySuccess(t('vods.requested'));
      setTitle('');
      setYear('');
      setNotes('');
      setTouched(false);
      onClose();
    } catch (e) {
      const text = isApiError(e) && e.status === 0 ? t('errors.COMMUNICATION') : isApiError(e) && e.code === 'VOD_REQUEST_EXISTS' ? t('vods.manual.exists') : t('vods.refused');
      notifyError(new ApiError(isApiError(e) ? e.status : 0, 'VOD_REQUEST', text));
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('vods.manual.open')} centered data-testid="vod-manual-modal">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('vods.manual.help')}
          </Text>
          <TextInput
            label={t('vods.manual.title')}
            withAsterisk
            maxLength={300}
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            error={touched && errors.title ? t('vods.manual.titleRequired') : undefined}
            data-autofocus
            data-testid="vod-manual-title"
          />
          <SegmentedControl
            aria-label={t('vods.columns.type')}
            data={[
              { value: 'movie', label: t('vods.mediaType.movie') },
              { value: 'tv', label: t('vods.mediaType.tv') },
            ]}
            value={kind}
            onChange={(v) => setKind(v === 'tv' ? 'tv' : 'movie')}
            data-testid="vod-manual-kind"
          />
          <TextInput
            label={t('vods.manual.year')}
            inputMode="numeric"
            maxLength={4}
            value={year}
            onChange={(e) => setYear(e.currentTarget.value)}
            error={touched && errors.year ? t('vods.manual.yearInvalid') : undefined}
            data-testid="vod-manual-year"
          />
          <Textarea label={t('vods.notes')} maxLength={1000} autosize minRows={2} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} data-testid="vod-manual-notes" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={requestByHand.isPending} data-testid="vod-manual-submit">
              {t('vods.request')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
