import type { TFunction } from 'i18next';

/** A package's term, "1 mês" / "3 meses": the unit takes the count's plural form (users.units.<unit>_one/_other). */
export function durationText(t: TFunction, count: number, unit: string): string {
  return t('users.duration', { count, unit: t(`users.units.${unit}`, { count, defaultValue: unit }) });
}
