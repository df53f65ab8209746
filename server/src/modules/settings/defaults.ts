// Business setting defaults (docs/rules.md, "Settings"); admins change them in the settings table.
export const DEFAULT_SETTINGS: Record<string, string> = {
  master_min_credit_create: '1',
  user_limit_screen: '1',
  /** empty: links use PUBLIC_URL, else the address the panel was reached at */
  main_domain: '',
  /** id of the registered edge (servers) the stream URLs of playlists and the player API point at; empty: they follow the links */
  default_edge: '',
  trial_limit_per_day: '5',
  migration_package_adult: '33',
  migration_package_no_adult: '38',
  /** P2P logins are username@this domain */
  p2p_email_domain: 'p2p.local',
  /** credits per 30 days of a line's remaining time, charged to activate its Lazy Player */
  lazy_player_monthly_credits: '1',
  /** the resellers' chat group and the manual site, in the sidebar when set */
  chat_group_url: '',
  manual_url: '',
  /** a new connection past a line's max_connections: 'refuse' it, or 'drop_oldest' (ended like a disconnect) */
  max_connections_policy: 'refuse',
  /** requests a minute each API key may make (counted in the database, across processes) */
  api_key_requests_per_minute: '60',
};
