import { Button, Group, Loader, Modal, MultiSelect, Stack, Text } from '@mantine/core';
import { notifySuccess } from '../../api/notify';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_DEBOUNCE_MS } from '../../api/resellerSearch';
import type { BouquetListed, Stream } from '../../api/types';
import { formatNumber } from '../../lib/format';
import { useCategories, useStreams } from '../../api/catalogue';
import { KINDS } from '../../api/catalogue';
import { useBouquetContents, useSaveBouquetContents } from './api';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import './texts';

/** Streams offered per search; names of chosen streams are looked up for the first NAMED. */
const SEARCH_RESULTS = 50;
const NAMED = 100;

/** The bouquet's catalogue: whole categories (every stream in them, present and future) and single streams. */
export default function BouquetContentsModal({ bouquet, onClose }: { bouquet: BouquetListed; onClose: () => void }) {
  const { t } = useTranslation();
  const contents = useBouquetContents(bouquet.id);
  const categories = useCategories();
  const save = useSaveBouquetContents(bouquet.id);
  // null until the saved contents arrive
  const form = useForm<{ categories: string[] | null; streams: string[] | null }>({ initialValues: { categories: null, streams: null } });
  const { categories: chosenCategories, streams: chosenStreams } = form.values;
  const [search, setSearch] = useState(''); // the streams field's search text (no form value)
  const [term] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [known, setKnown] = useState<Record<string, Stream>>({});

  // The form starts from the bouquet as saved.
  // biome-ignore lint/correctness/useExhaustiveDependencies: form.setValues is stable
  useEffect(() => {
    if (!contents.data || chosenCategories) return;
    form.setValues({ categories: contents.data.categories.map(String), streams: contents.data.streams.map(String) });
  }, [contents.data, chosenCategories]);

  const savedIds = contents.data?.streams.slice(0, NAMED) ?? [];
  const named = useStreams({ ids: savedIds.join(','), per: 100 }, savedIds.length > 0);
  const found = useStreams({ search: term, per: SEARCH_RESULTS, order_by: 'name,asc' }, term.length > 0);

  // Streams seen so far keep their names once chosen (the search results change as one types).
  useEffect(() => {
    const rows = [...(named.data?.data ?? []), ...(found.data?.data ?? [])];
    if (rows.length) setKnown((k) => ({ ...k, ...Object.fromEntries(rows.map((s) => [String(s.id), s])) }));
  }, [named.data, found.data]);

  const categoryData = useMemo(
    () =>
      KINDS.map((kind) => ({
        group: t(`catalogue.kinds.${kind}`),
        items: (categories.data ?? [])
          .filter((c) => c.kind === kind)
          // the kind in the label too: a chosen category's pill shows its label, not its group
          .map((c) => ({ value: String(c.id), label: t('bouquets.contents.categoryLabel', { kind: t(`catalogue.kinds.${kind}`), name: c.name, streams: formatNumber(c.streams_count) }) })),
      })).filter((g) => g.items.length > 0),
    [categories.data, t],
  );

  const streamData = useMemo(() => {
    const label = (id: string) => {
      const s = known[id];
      return s ? `${s.name} · ${t(`catalogue.kinds.${s.kind}`)} · ${s.category_name}` : `#${id}`;
    };
    const ids = new Set([...(chosenStreams ?? []), ...(found.data?.data ?? []).map((s) => String(s.id))]);
    return [...ids].map((id) => ({ value: id, label: label(id) }));
  }, [chosenStreams, found.data, known, t]);

  const submit = async () => {
    if (!chosenCategories || !chosenStreams) return;
    await save.mutateAsync({ bouquet_name: bouquet.bouquet_name, categories: chosenCategories.map(Number), streams: chosenStreams.map(Number) });
    notifySuccess(t('bouquets.contents.saved'));
    onClose();
  };

  const loading = contents.isPending || categories.isPending;
  return (
    <Modal opened onClose={onClose} centered size="lg" title={t('bouquets.contents.title', { name: bouquet.bouquet_name })}>
      {contents.isError || categories.isError ? (
        <LoadErrorAlert
          onRetry={() => Promise.all([contents.isError && contents.refetch(), categories.isError && categories.refetch()])}
          testId="bouquet-contents-error"
        />
      ) : loading || !chosenCategories || !chosenStreams ? (
        <Group justify="center" py="lg">
          <Loader size="sm" />
        </Group>
      ) : (
        <Stack gap="md" data-testid="bouquet-contents">
          <Text size="sm" c="dimmed">
            {t('bouquets.contents.help')}
          </Text>
          <MultiSelect
            label={t('bouquets.contents.categories')}
            placeholder={t('bouquets.contents.categoriesPlaceholder')}
            searchable
            clearable
            data={categoryData}
            value={chosenCategories}
            onChange={(v) => form.setFieldValue('categories', v)}
            nothingFoundMessage={t('bouquets.contents.noCategories')}
            maxDropdownHeight={260}
            comboboxProps={{ withinPortal: true }}
            data-testid="bouquet-categories"
          />
          <MultiSelect
            label={t('bouquets.contents.streams')}
            description={t('bouquets.contents.streamsHelp')}
            placeholder={t('bouquets.contents.streamsPlaceholder')}
            searchable
            clearable
            data={streamData}
            value={chosenStreams}
            onChange={(v) => form.setFieldValue('streams', v)}
            searchValue={search}
            onSearchChange={setSearch}
            filter={({ options }) => options}
            nothingFoundMessage={term && !found.isFetching ? t('common.noRecords') : t('bouquets.contents.typeToSearch')}
            rightSection={found.isFetching ? <Loader size={16} /> : undefined}
            maxDropdownHeight={260}
            comboboxProps={{ withinPortal: true }}
            data-testid="bouquet-streams"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button onClick={() => void submit()} loading={save.isPending} data-testid="bouquet-contents-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
