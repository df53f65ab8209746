import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** e2e/ workspace folder. */
export const E2E_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Repository root (the folder holding server/, web/ and e2e/); never hard-coded. */
export const REPO_ROOT = path.resolve(E2E_ROOT, '..');
/** Built web app the server serves. */
// E2E_WEB_DIST: a build of one's own (helpers building at the same time must not swap web/dist under a run).
export const WEB_DIST = process.env.E2E_WEB_DIST ?? path.join(REPO_ROOT, 'web', 'dist');
/** Screenshots and logs of failed tests (gitignored). */
export const RESULTS_DIR = path.join(E2E_ROOT, 'test-results');
