/**
 * The built-in schemas are read on first use: every start makes the stores, strategies and field
 * managers that hold them, and a restart needs none of the definitions before it is ready.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldManager } from '../../../src/apply/field-manager.js';
import { FieldTypes } from '../../../src/apply/field-types.js';
import { readGeneratedText } from '../../../src/registry/catalog/generated-files.js';
import type { SchemaNode } from '../../../src/registry/schema/schema-node.js';
import { SchemaSet, definitionTexts, loadBuiltinSchemas } from '../../../src/registry/schema/schema-set.js';

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

test('the built-in set reads schemas.json line by line to what a full parse of it gives', () => {
  const file = JSON.parse(readGeneratedText('schemas.json')) as { definitions: Record<string, unknown> };
  const schemas = loadBuiltinSchemas();
  assert.deepEqual(schemas.names(), Object.keys(file.definitions).sort());
  for (const name of schemas.names()) assert.deepEqual(schemas.definition(name), file.definitions[name], name);
});

test('a definition given as text is parsed once, when first asked for', () => {
  const set = new SchemaSet(new Map<string, SchemaNode | string>([['a', '{"type":"object","properties":{"b":{"ref":"b"}}}'], ['b', { type: 'string' }]]));
  const first = set.definition('a');
  assert.equal(set.definition('a'), first);
  assert.deepEqual(set.field(first!, 'b'), { type: 'string' });
  assert.equal(set.definition('missing'), undefined);
});

test('a schemas file laid out otherwise than a definition per line is parsed whole', () => {
  const definitions = { a: { type: 'object', properties: { b: { type: 'string' } } }, c: { type: 'integer' } };
  const perLine = `{\n"comment": "x",\n"definitions": {\n"a": ${JSON.stringify(definitions.a)},\n"c": ${JSON.stringify(definitions.c)}\n}\n}\n`;
  assert.deepEqual(definitionTexts(perLine), new Map([['a', JSON.stringify(definitions.a)], ['c', JSON.stringify(definitions.c)]]));
  assert.deepEqual(definitionTexts(JSON.stringify({ comment: 'x', definitions }, null, 2)), new Map(Object.entries(definitions)));
  assert.deepEqual(definitionTexts(JSON.stringify({ definitions })), new Map(Object.entries(definitions)));
});
