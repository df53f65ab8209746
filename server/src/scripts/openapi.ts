// `npm run api:schema`: writes the OpenAPI document the server serves at /api/docs/json to
// server/openapi.json (committed; the web's types are generated from it). Nothing listens.
import fs from 'node:fs';
import { OPENAPI_FILE, openapiText } from '../http/openapi-file.ts';

fs.writeFileSync(OPENAPI_FILE, await openapiText());
console.log(`wrote ${OPENAPI_FILE}`);
