import { List, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { CatalogueImportResult } from '../../api/types';
import { formatNumber } from '../../lib/format';
import './texts';

/** Skip reasons listed at most (the server answers up to 1,000). */
const SHOWN_SKIPS = 20;

const FIGURES = ['added', 'updated', 'unchanged', 'categoriesAdded', 'skipped'] as const;

/** The import's figures as words, each with its plural ("1 adicionado · 2 categorias novas"). */
export function importFigures(t: TFunction, result: Pick<CatalogueImportResult, 'added' | 'updated' | 'unchanged' | 'categories_added' | 'skipped_total'>) {
  const counts = { added: result.added, updated: result.updated, unchanged: result.unchanged, categoriesAdded: result.categories_added, skipped: result.skipped_total };
  return FIGURES.map((key) => ({ key, text: t(`catalogue.import.summary.${key}`, { count: counts[key], n: formatNumber(counts[key]) }) }));
}

/** What an import did: added, updated, unchanged, new categories, and the skipped entries with their reasons. */
export function ImportSummary({ result }: { result: CatalogueImportResult }) {
  const { t } = useTranslation();
  const figures = importFigures(t, result);
  const shown = result.skipped.slice(0, SHOWN_SKIPS);
  return (
    <Stack gap={6}>
      <Text size="sm" data-testid="import-figures">
        {figures.map(({ key, text }, i) => (
          <span key={key} data-testid={`import-count-${key}`}>
            {i > 0 && ' · '}
            {text}
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
              {t('catalogue.import.summary.moreSkipped', { count: result.skipped_total - shown.length, n: formatNumber(result.skipped_total - shown.length) })}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
