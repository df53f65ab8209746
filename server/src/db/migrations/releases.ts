/**
 * The release before this one, as far as the schema goes: its last migration, and a SHA-256 of its
 * migration files (each file's name, a newline and its text, in name order). Migrations only go
 * forward and a released one never changes; server/test/upgrade.test.ts starts this build on a
 * database those migrations made, and fails when a released file was edited.
 *
 * At each release: set `lastMigration` to the newest migration and `sha256` to the figure the
 * upgrade test prints when they differ.
 */
export const PREVIOUS_RELEASE = {
  lastMigration: '038_payments',
  sha256: '89c98bf9ca50888d8c8dbd816e49651ae82285a3af685a98d8ff7448928962d3',
};
