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
  lastMigration: '041_credit_sales',
  sha256: '1e6fbdfd8d72f8295174eca04924163ec06a44d66d4376345700e723bcee5410',
};
