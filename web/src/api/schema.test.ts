import fs from 'node:fs';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { expect, it } from 'vitest';

const DOCUMENT = new URL('../../../server/openapi.json', import.meta.url);
const TYPES = new URL('./schema.d.ts', import.meta.url);

it('schema.d.ts is generated from server/openapi.json as it is (npm run api:types)', async () => {
  const generated = COMMENT_HEADER + astToString(await openapiTS(DOCUMENT));
  if (generated !== fs.readFileSync(TYPES, 'utf8')) expect.fail('web/src/api/schema.d.ts is out of date: run `npm run api:types`');
});
