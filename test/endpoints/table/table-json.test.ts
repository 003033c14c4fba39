import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { stitchTableJson } from '../../../src/endpoints/table/table-json.js';
import type { Table } from '../../../src/endpoints/table/table-types.js';

const table = (objects: Array<Record<string, unknown> | null>): Table => ({
  kind: 'Table',
  apiVersion: 'meta.k8s.io/v1',
  metadata: { resourceVersion: '7' },
  columnDefinitions: [{ name: 'Name', type: 'string', format: 'name', description: '', priority: 0 }],
  rows: objects.map((object, i) => ({ cells: [`n<${i}>`], ...(i === 1 ? { conditions: [{ type: 'Completed', status: 'True' }] } : {}), object })),
});

describe('stitchTableJson', () => {
  it('gives the bytes of the whole Table encoded at once, from rows without objects and each object encoded apart', () => {
    const objects = [{ kind: 'PartialObjectMetadata', metadata: { name: 'a&b' } }, { kind: 'PartialObjectMetadata', metadata: { name: 'c' } }, { kind: 'PartialObjectMetadata', metadata: {} }];
    const whole = `${JSON.stringify(table(objects)).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)}\n`;
    const stitched = stitchTableJson(table([null, null, null]), (i) => Buffer.from(JSON.stringify(objects[i]).replace('&', '\\u0026')), 64)!;
    assert.equal(Buffer.concat(stitched.chunks).toString(), whole);
    assert.equal(stitched.size, Buffer.byteLength(whole));
    assert.ok(stitched.chunks.length > 1);
  });

  it('stitches an empty table and leaves null rows to the caller', () => {
    const empty = stitchTableJson(table([]), () => Buffer.alloc(0), 1024)!;
    assert.equal(Buffer.concat(empty.chunks).toString(), `${JSON.stringify(table([]))}\n`);
    assert.equal(stitchTableJson({ ...table([]), rows: null }, () => Buffer.alloc(0), 1024), undefined);
  });
});
