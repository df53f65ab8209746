import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** e2e/ workspace folder. */
export const E2E_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Repository root (the folder holding server/, web/ and e2e/); never hard-coded. */
export const REPO_ROOT = path.resolve(E2E_ROOT, '..');
/** Built web app the server serves. */
export const WEB_DIST = path.join(REPO_ROOT, 'web', 'dist');
/** Screenshots and logs of failed tests (gitignored). */
export const RESULTS_DIR = path.join(E2E_ROOT, 'test-results');
