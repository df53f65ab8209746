// Which engine the run tests (TEST_DB=sqlite|postgres) and the accounts every test database starts
// with; shared by the run's global setup and the test files.
export const ENGINE = (process.env.TEST_DB ?? 'sqlite') as 'sqlite' | 'postgres';
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** the first admin's password in every test database */
export const ADMIN_PASSWORD = 'admin-pass-123';
