import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/** Two-factor sign-in (TOTP): one secret per account, its recovery codes, and sign-in challenges. */
export async function up(db: Kysely<any>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('two_factor')
    .addColumn('reseller_id', 'integer', (c) => c.primaryKey().references('resellers.id'))
    // AES-256-GCM ciphertext of the base32 secret (see modules/twofactor/secrets.ts)
    .addColumn('secret_enc', 'varchar(300)', (c) => c.notNull())
    // null while the enrolment waits for its first code
    .addColumn('enabled_at', 'bigint')
    // the last 30-second step accepted: a code is never accepted twice
    .addColumn('last_step', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('two_factor_recovery_codes')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('two_factor_recovery_codes_owner')
    .on('two_factor_recovery_codes')
    .columns(['reseller_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('two_factor_challenges')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('remember_me', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('two_factor_challenges_expiry').on('two_factor_challenges').column('expires_at').execute();

  // Keys the server generates for itself; never exposed by any route (unlike `settings`).
  await db.schema
    .createTable('server_keys')
    .addColumn('name', 'varchar(50)', (c) => c.primaryKey())
    .addColumn('value', 'varchar(200)', (c) => c.notNull())
    .execute();
}
