/**
 * The built-in schemas are read on first use: every start makes the stores, strategies and field
 * managers that hold them, and a restart needs none of the definitions before it is ready.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldManager } from '../../../src/apply/field-manager.js';
import { FieldTypes } from '../../../src/apply/field-types.js';
import { SchemaSet, loadBuiltinSchemas } from '../../../src/registry/schema/schema-set.js';

test('a set given a reader calls it once, on first use', () => {
  let reads = 0;
  const set = new SchemaSet(() => (reads++, new Map([['a', { type: 'string' }]])));
  assert.equal(reads, 0);
  assert.equal(set.has('a'), true);
  assert.deepEqual(set.definition('a'), { type: 'string' });
  assert.deepEqual(set.names(), ['a']);
  assert.equal(reads, 1);
});

test('a field manager looks up its type on first use', () => {
  let reads = 0;
  const builtin = loadBuiltinSchemas();
  const schemas = new SchemaSet(() => (reads++, new Map(builtin.names().map((n) => [n, builtin.definition(n)!]))));
  const manager = new FieldManager({ types: new FieldTypes(schemas), schema: 'io.k8s.api.core.v1.ConfigMap', apiVersion: 'v1', hasStatus: false });
  assert.equal(reads, 0);
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } };
  manager.trackUpdate(undefined, object, { manager: 'm', subresource: '', now: '2026-11-27T00:00:00Z' });
  assert.equal(reads, 1);
  assert.equal((object.metadata as { managedFields?: unknown[] }).managedFields?.length, 1);
});
