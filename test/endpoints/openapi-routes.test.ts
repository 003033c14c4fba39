import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { gzippedOf } from '../../src/endpoints/openapi-routes.js';
import type { ServedDocument } from '../../src/openapi/openapi-documents.js';

describe('OpenAPI routes', () => {
  it("compress a document once: every request gets the same gzip form", async () => {
    const doc: ServedDocument = { body: Buffer.from(JSON.stringify({ swagger: '2.0', paths: {} })), hash: 'H' };
    const first = gzippedOf(doc);
    assert.equal(gzippedOf(doc), first, 'the same promise, not a second compression');
    assert.deepEqual(gunzipSync(await first), doc.body);
    const other: ServedDocument = { body: Buffer.from('{}'), hash: 'I' };
    assert.notEqual(gzippedOf(other), first, 'each document has its own');
  });
});
