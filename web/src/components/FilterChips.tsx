import { Button, Group, Pill, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface FilterChip {
  /** Search-param name of the filter (passed back to onRemove). */
  key: string;
  /** Translated filter name (shown before the value). */
  label: string;
  /** Display value, e.g. 'Ativo'. */
  value: string;
}

export interface FilterChipsProps {
  chips: FilterChip[];
  onRemove: (key: string) => void;
  onClearAll?: () => void;
}

/**
 * Removable chips for the active filters of a list; renders nothing without filters.
 * Usage: <FilterChips chips={[{ key: 'status', label: t(...), value: 'Ativo' }]} onRemove={table.removeFilter} onClearAll={table.clearFilters} />
 */
export function FilterChips({ chips, onRemove, onClearAll }: FilterChipsProps) {
  const { t } = useTranslation();
  if (chips.length === 0) return null;
  return (
    <Group gap="xs" wrap="wrap" aria-label={t('filters.active')} data-testid="filter-chips">
      {chips.map((c) => (
        <Pill
          key={c.key}
          size="md"
          withRemoveButton
          onRemove={() => onRemove(c.key)}
          removeButtonProps={{ 'aria-label': t('filters.remove', { label: c.label }), 'aria-hidden': false, tabIndex: 0 }}
          data-testid={`filter-chip-${c.key}`}
        >
          <Text span size="sm" fw={600}>
            {c.label}:
          </Text>{' '}
          {c.value}
        </Pill>
      ))}
      {onClearAll && chips.length > 1 && (
        <Button variant="subtle" size="compact-sm" onClick={onClearAll} data-testid="filter-chips-clear">
          {t('filters.clearAll')}
        </Button>
      )}
    </Group>
  );
}
