import { useTranslation } from 'react-i18next';
import { Pager } from '../../components/Pager';
import { type ResponsiveColumn, ResponsiveTable } from '../../components/table/ResponsiveTable';
import { VOD_PER_OPTIONS, type VodPer } from './api';

interface Props<R extends { id: number }> {
  columns: ResponsiveColumn<R>[];
  /** The page's query (a paged answer: `data` rows and `meta`). */
  list: { data?: { data: R[]; meta: { pages: number; total: number } }; isFetching: boolean; isPending: boolean; isError: boolean };
  testId: string;
  page: number;
  per: VodPer;
  onPageChange: (page: number) => void;
  /** A new page size (the page goes back to 1). */
  onPerChange: (per: VodPer) => void;
}

/** The table of both VOD request pages (the reseller's and the admin's) with its pager. */
export function VodTable<R extends { id: number }>({ columns, list, testId, page, per, onPageChange, onPerChange }: Props<R>) {
  const { t } = useTranslation();
  return (
    <>
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
          page={page}
          pages={list.data.meta.pages}
          total={list.data.meta.total}
          per={per}
          perOptions={VOD_PER_OPTIONS}
          onPageChange={onPageChange}
          onPerChange={(n) => {
            onPerChange(n);
            onPageChange(1);
          }}
        />
      )}
    </>
  );
}
