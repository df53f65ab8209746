import { Button, Group, Select, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../lib/format';
import { isValidPage, PER_OPTIONS, type PageCursors, type PerOption, pageButtons, pageCursor, pagerShown } from './pagerMath';

export interface PagerProps<P extends number = PerOption> {
  page: number;
  /** Total number of pages (meta.pages). */
  pages: number;
  /** Total number of matching rows (meta.total). */
  total: number;
  /** meta.capped: the server stopped counting at `total` (shown as "10.000+"). */
  capped?: boolean;
  per: number;
  /** meta.next / meta.prev of the page shown: passed to onPageChange for its neighbouring pages */
  next?: string;
  prev?: string;
  /** `cursor`: what to ask `page` with (pageCursor), empty for a jump */
  onPageChange: (page: number, cursor: PageCursors) => void;
  onPerChange: (per: P) => void;
  /** default PER_OPTIONS; the content-request lists page by 10, 25, 50 or 100 */
  perOptions?: readonly P[];
  /** Hide the pager when there is at most one page (the per-page select too). */
  hideWhenSingle?: boolean;
}

/**
 * Shared pager: "page x of y", total rows, per-page select, previous/next and
 * up to 7 numbered buttons. Requests for pages outside 1..pages are ignored. An empty list shows no
 * pager: the table above it shows its empty-state sentence.
 * Usage: <Pager page={m.page} pages={m.pages} total={m.total} per={m.per} onPageChange={setPage} onPerChange={setPer} />
 */
export function Pager<P extends number = PerOption>({ page, pages, total, capped, per, next, prev, onPageChange, onPerChange, perOptions = PER_OPTIONS as unknown as readonly P[], hideWhenSingle }: PagerProps<P>) {
  const { t } = useTranslation();
  if (!pagerShown({ pages, total, capped, hideWhenSingle })) return null;
  const go = (target: number) => {
    if (target !== page && isValidPage(target, pages)) onPageChange(target, pageCursor(target, { page, next, prev }));
  };
  const shownPage = pages < 1 ? 0 : Math.min(Math.max(page, 1), pages);

  return (
    <Group justify="space-between" gap="sm" wrap="wrap" data-testid="pager">
      <Group gap="sm" wrap="wrap">
        <Text size="sm" data-testid="pager-summary">
          {t('pager.pageOf', { page: shownPage, pages: Math.max(pages, 0) })} · {capped ? t('pager.totalCapped', { n: formatNumber(total) }) : t('pager.total', { count: total, n: formatNumber(total) })}
        </Text>
        <Select
          aria-label={t('pager.perPage')}
          data-testid="pager-per"
          size="xs"
          w={80}
          allowDeselect={false}
          data={perOptions.map((n) => String(n))}
          value={String(per)}
          onChange={(v) => v && onPerChange(Number(v) as P)}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      <Group gap={4} wrap="wrap">
        <Button
          variant="default"
          size="xs"
          px={8}
          aria-label={t('pager.previous')}
          data-testid="pager-prev"
          disabled={page <= 1}
          onClick={() => go(page - 1)}
        >
          <IconChevronLeft size={16} />
        </Button>
        {pageButtons(page, pages).map((n) => (
          <Button
            key={n}
            size="xs"
            px={10}
            variant={n === shownPage ? 'filled' : 'default'}
            aria-label={t('pager.goTo', { page: n })}
            aria-current={n === shownPage ? 'page' : undefined}
            data-testid={`pager-page-${n}`}
            onClick={() => go(n)}
          >
            {n}
          </Button>
        ))}
        <Button
          variant="default"
          size="xs"
          px={8}
          aria-label={t('pager.next')}
          data-testid="pager-next"
          disabled={page >= pages}
          onClick={() => go(page + 1)}
        >
          <IconChevronRight size={16} />
        </Button>
      </Group>
    </Group>
  );
}
