// Spec section 9 defaults; admins change them in the settings table.
export const DEFAULT_SETTINGS: Record<string, string> = {
  master_min_credit_create: '1',
  user_limit_screen: '1',
  /** empty: links use PUBLIC_URL, else the address the panel was reached at */
  main_domain: '',
  trial_limit_per_day: '5',
  migration_package_adult: '33',
  migration_package_no_adult: '38',
};
