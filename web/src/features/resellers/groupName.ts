import i18n from '../../i18n';
import './texts';

/** The names migration 002 seeded (in English); a name an admin gave a group is shown as it is. */
const SEEDED_NAMES: Record<string, string> = { admin: 'Administrators', master: 'Master resellers', reseller: 'Resellers' };

/** A group's name in the reader's language: the seeded groups are translated by their type. */
export function groupName(name: string, type: string | undefined): string {
  return type && SEEDED_NAMES[type] === name ? i18n.t(`groups.${type}`) : name;
}
