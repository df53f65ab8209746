import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/connection.ts';

/** The committed copy of the document: `npm run api:schema` writes it, a server test compares. */
export const OPENAPI_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../openapi.json');

/** The OpenAPI document as /api/docs/json serves it, built without listening (no query runs). */
export async function openapiText(): Promise<string> {
  const database = openDatabase('sqlite::memory:');
  const app = await buildApp({ config: loadConfig({}), database }, { logger: false });
  try {
    await app.ready();
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
    await database.close();
  }
}
