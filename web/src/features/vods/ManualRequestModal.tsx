import { Button, Group, Modal, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { notifySuccess } from '../../api/notify';
import { useRequestByHand } from './api';
import { notifyRequestError, requestErrorText } from './CatalogueSearchModal';

const YEAR_RE = /^(\d{4})?$/;

/** Whether a typed title and year can be sent (the server's rules: a title with a letter, a 4-digit year or none). */
export function manualRequestErrors(title: string, year: string): { title?: 'required'; year?: 'invalid' } {
  return { ...(title.trim() ? {} : { title: 'required' as const }), ...(YEAR_RE.test(year.trim()) ? {} : { year: 'invalid' as const }) };
}

interface Values {
  title: string;
  kind: 'movie' | 'tv';
  year: string;
  notes: string;
}

const EMPTY: Values = { title: '', kind: 'movie', year: '', notes: '' };

/** 'Ask by name' (masters and admins): a title typed by hand, when the catalogue search is off or does not find it. */
export function ManualRequestModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const requestByHand = useRequestByHand();
  const form = useForm<Values>({
    initialValues: EMPTY,
    validate: {
      title: (v) => (manualRequestErrors(v, '').title ? t('vods.manual.titleRequired') : null),
      year: (v) => (manualRequestErrors('x', v).year ? t('vods.manual.yearInvalid') : null),
    },
  });

  const submit = form.onSubmit(async (v) => {
    try {
      await requestByHand.mutateAsync({ title: v.title.trim(), media_type: v.kind, year: v.year.trim() || undefined, observacoes: v.notes.trim() || undefined });
    } catch (e) {
      // the call is silent: a refusal is toasted with the dialog's fixed text
      notifyRequestError(isApiError(e) && e.code === 'VOD_REQUEST_EXISTS' ? t('vods.manual.exists') : requestErrorText(e));
      return;
    }
    notifySuccess(t('vods.requested'));
    form.reset();
    onClose();
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t('vods.manual.open')} centered data-testid="vod-manual-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('vods.manual.help')}
          </Text>
          <TextInput label={t('vods.manual.title')} withAsterisk maxLength={300} data-autofocus data-testid="vod-manual-title" {...form.getInputProps('title')} />
          <SegmentedControl
            aria-label={t('vods.columns.type')}
            data={[
              { value: 'movie', label: t('vods.mediaType.movie') },
              { value: 'tv', label: t('vods.mediaType.tv') },
            ]}
            data-testid="vod-manual-kind"
            {...form.getInputProps('kind')}
          />
          <TextInput label={t('vods.manual.year')} inputMode="numeric" maxLength={4} data-testid="vod-manual-year" {...form.getInputProps('year')} />
          <Textarea label={t('vods.notes')} maxLength={1000} autosize minRows={2} data-testid="vod-manual-notes" {...form.getInputProps('notes')} />
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
