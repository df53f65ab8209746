import type { Complements, Package } from '../../api/types';
import { OFFERED_LINKS } from '../../lib/links';

/** What lines of both kinds (IPTV users and P2P accounts) share: links, packages, screens. */
export const LINK_TYPES = OFFERED_LINKS;

/** Setting `user_limit_screen` (default 1). */
export function screenLimit(c: Complements | undefined): number {
  const n = Number(c?.settings.user_limit_screen ?? '1');
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** A package with 2 or more screens sets a line's screens; with fewer, the line has its own (`own`). */
export const screensWith = (pkg: Pick<Package, 'max_connections'>, own: number): number => (pkg.max_connections >= 2 ? pkg.max_connections : own);

/** Packages for normal lines (creation and renewal): non-trial only. */
export const paidPackages = (c: Complements | undefined) => (c?.packages ?? []).filter((p) => p.is_trial !== 1);
/** Packages for trial lines: trial and not official. */
export const trialPackages = (c: Complements | undefined) => (c?.packages ?? []).filter((p) => p.is_trial === 1 && p.is_official === 0);
