import { TextInput, type TextInputProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { Pager } from '../../components/Pager';
import { type ResponsiveColumn, ResponsiveTable } from '../../components/table/ResponsiveTable';
import { VOD_PER_OPTIONS, type VodPer } from './api';

// What both VOD request pages (the reseller's and the admin's) share: the filter, the paging, the table.

/** The text filter (asked 500 ms after the last key) and the page of a request list; a new filter starts at page 1. */
export function useVodListState() {
  const [search, setSearchText] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 500);
  const [page, setPage] = useState(1);
  const [per, setPer] = useState<VodPer>(10);
  const setSearch = (text: string) => {
    setSearchText(text);
    setPage(1);
  };
  return { search, setSearch, debounced, page, setPage, per, setPer };
}

type VodListState = ReturnType<typeof useVodListState>;

export function VodFilterInput({ state, w }: { state: VodListState; w: TextInputProps['w'] }) {
  const { t } = useTranslation();
  return (
    <TextInput
      aria-label={t('vods.filter')}
      placeholder={t('vods.filter')}
      leftSection={<IconSearch size={16} />}
      value={state.search}
      maxLength={100}
      onChange={(e) => state.setSearch(e.currentTarget.value)}
      w={w}
      data-testid="vods-filter"
    />
  );
}

interface Props<R extends { id: number }> {
  columns: ResponsiveColumn<R>[];
  /** The page's query (a paged answer: `data` rows and `meta`). */
  list: { data?: { data: R[]; meta: { pages: number; total: number } }; isFetching: boolean; isPending: boolean; isError: boolean; refetch: () => unknown };
  testId: string;
  state: VodListState;
}

/** The table of a VOD request list with its pager (a new page size goes back to page 1). */
export function VodTable<R extends { id: number }>({ columns, list, testId, state }: Props<R>) {
  const { t } = useTranslation();
  return (
    <>
      {list.isError && <LoadErrorAlert onRetry={list.refetch} testId="vods-table-error" />}
      <ResponsiveTable
        columns={columns}
        records={list.data?.data ?? []}
        fetching={list.isFetching}
        loading={list.isPending}
        noRecordsText={list.isError ? t('common.loadError') : t('vods.empty')}
        testId={testId}
        rowTestId={(r) => `vod-row-${r.id}`}
      />
      {list.data && (
        <Pager<VodPer>
          page={state.page}
          pages={list.data.meta.pages}
          total={list.data.meta.total}
          per={state.per}
          perOptions={VOD_PER_OPTIONS}
          onPageChange={state.setPage}
          onPerChange={(n) => {
            state.setPer(n);
            state.setPage(1);
          }}
        />
      )}
    </>
  );
}
