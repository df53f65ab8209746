import { Paper, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber } from '../../lib/format';
import type { Counts, Figure } from './figures';
import './texts';

/** The cards, in order; the PIX payments' count is told under the amount received. */
const CARDS: readonly Exclude<Figure, 'pix_payments'>[] = ['lines_created', 'trials_created', 'renewals', 'credits_spent', 'pix_received_cents', 'expired'];

/** The period's totals, one card each (skeletons until the first answer; dimmed while the next period loads). */
export function Totals({ totals, fetching }: { totals: Counts | undefined; fetching: boolean }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="reports-totals-title" aria-busy={fetching || !totals || undefined}>
      <Title order={2} size="h4" mb="xs" id="reports-totals-title">
        {t('reports.totalsTitle')}
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing={{ base: 'xs', sm: 'sm' }} style={{ opacity: fetching ? 0.6 : 1 }}>
        {CARDS.map((f) => (
          <Paper key={f} withBorder radius="md" p="sm" data-testid={`report-card-${f}`}>
            <Text size="xs" c="dimmed" fw={600} lh={1.25}>
              {t(`reports.figures.${f}`)}
            </Text>
            {totals ? (
              <>
                <Text fz={22} fw={700} lh={1.2} data-testid={`report-total-${f}`}>
                  {f === 'pix_received_cents' ? formatMoney(totals[f]) : formatNumber(totals[f])}
                </Text>
                {f === 'pix_received_cents' && (
                  <Text size="xs" c="dimmed" data-testid="report-total-pix_payments">
                    {t('reports.pixPayments', { count: totals.pix_payments, n: formatNumber(totals.pix_payments) })}
                  </Text>
                )}
              </>
            ) : (
              <Skeleton h={26} w="55%" mt={2} />
            )}
          </Paper>
        ))}
      </SimpleGrid>
    </section>
  );
}
