import { List, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CatalogueImportResult } from '../../api/types';
import { formatNumber } from '../../lib/format';

/** Skip reasons listed at most (the server answers up to 1,000). */
const SHOWN_SKIPS = 20;

/** What an import did: added, updated, unchanged, new categories, and the skipped entries with their reasons. */
export function ImportSummary({ result }: { result: CatalogueImportResult }) {
  const { t } = useTranslation();
  const figures = [
    ['added', result.added],
    ['updated', result.updated],
    ['unchanged', result.unchanged],
    ['categoriesAdded', result.categories_added],
    ['skipped', result.skipped_total],
  ] as const;
  const shown = result.skipped.slice(0, SHOWN_SKIPS);
  return (
    <Stack gap={6}>
      <Text size="sm" data-testid="import-figures">
        {figures.map(([key, n], i) => (
          <span key={key} data-testid={`import-count-${key}`}>
            {i > 0 && ' · '}
            {t(`catalogue.import.summary.${key}`, { n: formatNumber(n) })}
          </span>
        ))}
      </Text>
      {shown.length > 0 && (
        <>
          <Text size="sm" fw={600}>
            {t('catalogue.import.summary.skippedTitle')}
          </Text>
          <List size="sm" spacing={2} data-testid="import-skipped-list">
            {shown.map((s) => (
              <List.Item key={`${s.line}-${s.name}`}>
                {t('catalogue.import.summary.skip', { line: s.line, name: s.name || '—', reason: s.reason })}
              </List.Item>
            ))}
          </List>
          {result.skipped_total > shown.length && (
            <Text size="xs" c="dimmed">
              {t('catalogue.import.summary.moreSkipped', { n: formatNumber(result.skipped_total - shown.length) })}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
