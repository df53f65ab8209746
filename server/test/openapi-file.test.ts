import fs from 'node:fs';
import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE, openapiText } from '../src/http/openapi-file.ts';

/** The first line where two texts differ, for a short failure message. */
function firstDifference(a: string, b: string): string {
  const [al, bl] = [a.split('\n'), b.split('\n')];
  const i = al.findIndex((line, n) => line !== bl[n]);
  return `line ${i + 1}: committed ${JSON.stringify(al[i])}, server ${JSON.stringify(bl[i])}`;
}

describe('the committed OpenAPI document', () => {
  it('is the one the server serves (npm run api:schema writes it)', async () => {
    const committed = fs.readFileSync(OPENAPI_FILE, 'utf8');
    const served = await openapiText();
    if (committed !== served) expect.fail(`server/openapi.json is out of date, run \`npm run api:schema\` (${firstDifference(committed, served)})`);
  });

  it('is a valid OpenAPI 3.0 document', async () => {
    const result = await validate(JSON.parse(fs.readFileSync(OPENAPI_FILE, 'utf8')));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });
});
