import { Button, Group, Paper, Select, Skeleton, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormPageShell } from '../../components/FormPageShell';
import { decodeNewsBody } from '../../lib/newsBody';
import type { NewsInput, NewsItem } from '../../api/types';
import { useSaveNews } from './api';
import { DASHBOARD_NEWS_ID, LINK_NEWS_ID, useNews } from '../../api/news';
import { NewsBody } from '../../components/NewsBody';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import './texts';
import { NumberField } from '../../components/NumberField';

const EMPTY: NewsInput = { title: '', body: '', level: 1, status: 1 };
const ITEMS = [DASHBOARD_NEWS_ID, LINK_NEWS_ID] as const;

interface FormValues {
  title: string;
  body: string;
  level: number | string;
  status: string;
}

// Old URL-encoded bodies are shown (and saved back) as plain text.
const toForm = (n: NewsInput): FormValues => ({ title: n.title, body: decodeNewsBody(n.body), level: n.level, status: String(n.status) });

/** /edit_news (admin): title, body, level and status of the dashboard notice (or the link-modal notice), all required. */
export function NewsEditPage() {
  const { t } = useTranslation();
  const news = useNews();
  const save = useSaveNews();
  const [id, setId] = useState<number>(DASHBOARD_NEWS_ID);
  const item = news.data?.find((n) => n.id === id);

  const form = useForm<FormValues>({
    initialValues: toForm(EMPTY),
    validate: {
      title: (v) => (v.trim() ? null : t('news.required')),
      body: (v) => (v.trim() ? null : t('news.required')),
      level: (v) => (v !== '' && Number.isInteger(Number(v)) && Number(v) >= 0 && Number(v) <= 10 ? null : t('news.levelRange')),
      status: (v) => (v === '0' || v === '1' ? null : t('news.required')),
    },
  });

  // Load the chosen item into the form (on first load and when switching items).
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the item itself changes, not on every form render.
  useEffect(() => {
    if (item) {
      form.setValues(toForm(item));
      form.resetDirty(toForm(item));
      form.clearErrors();
    }
  }, [item?.id, item?.title, item?.body, item?.level, item?.status]);

  const submit = form.onSubmit(async (v) => {
    const body: NewsItem = { id, title: v.title.trim(), body: v.body, level: Number(v.level), status: Number(v.status) };
    await save.mutateAsync(body);
    notifySuccess(t('news.success'));
  });

  return (
    <FormPageShell title={t('news.title')}>
        {news.isError ? (
          <LoadErrorAlert onRetry={() => news.refetch()} testId="news-error" />
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
              <Select
                label={t('news.item')}
                data={ITEMS.map((n) => ({ value: String(n), label: t(`news.items.${n}`) }))}
                value={String(id)}
                onChange={(v) => v && setId(Number(v))}
                allowDeselect={false}
                data-testid="news-item"
              />
              {news.isPending ? (
                <Stack gap="md" data-testid="news-loading">
                  <Skeleton h={56} />
                  <Skeleton h={140} />
                  <Skeleton h={56} />
                </Stack>
              ) : (
                <>
                  <TextInput label={t('news.fieldTitle')} required maxLength={200} data-testid="news-title" {...form.getInputProps('title')} />
                  <Textarea
                    label={t('news.body')}
                    description={t('news.bodyHint')}
                    required
                    autosize
                    minRows={4}
                    maxRows={14}
                    maxLength={10_000}
                    data-testid="news-body"
                    {...form.getInputProps('body')}
                  />
                  <Group grow align="flex-start" wrap="wrap">
                    <NumberField
                      label={t('news.level')}
                      required
                      min={0}
                      max={10}
                      allowDecimal={false}
                      allowNegative={false}
                      clampBehavior="strict"
                      miw={140}
                      data-testid="news-level"
                      {...form.getInputProps('level')}
                    />
                    <Select
                      label={t('news.status')}
                      required
                      allowDeselect={false}
                      data={[
                        { value: '1', label: t('news.active') },
                        { value: '0', label: t('news.inactive') },
                      ]}
                      miw={140}
                      data-testid="news-status"
                      {...form.getInputProps('status')}
                    />
                  </Group>
                  {form.values.body.trim() && (
                    <Stack gap={4}>
                      <Text size="sm" fw={600}>
                        {t('news.preview')}
                      </Text>
                      <Paper withBorder p="sm" radius="sm" bg="var(--mantine-color-gray-0)" data-testid="news-preview">
                        <NewsBody body={form.values.body} />
                      </Paper>
                    </Stack>
                  )}
                  <Group justify="flex-end">
                    <Button type="submit" loading={save.isPending} leftSection={<IconDeviceFloppy size={18} />} data-testid="news-save">
                      {t('common.save')}
                    </Button>
                  </Group>
                </>
              )}
            </Stack>
          </form>
        )}
    </FormPageShell>
  );
}
