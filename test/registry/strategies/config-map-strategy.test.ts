import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ctx, messages, strategy } from './fixtures.js';

const configMaps = () => strategy('', 'configmaps');
const IMMUTABLE = 'Forbidden: field is immutable when `immutable` is set';
const KEY_MESSAGE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

test('keys are validated with upstream messages', () => {
  const cases: [string, string[]][] = [
    ['good.key_1-x', []],
    ['bad/key', [`data[bad/key]: Invalid value: "bad/key": ${KEY_MESSAGE}`]],
    ['.', [`data[.]: Invalid value: ".": must not be '.'`]],
    ['..x', [`data[..x]: Invalid value: "..x": must not start with '..'`]],
  ];
  for (const [key, expected] of cases) {
    assert.deepEqual(messages(configMaps().validate({ metadata: { name: 'c' }, data: { [key]: 'v' } }, ctx())), expected, key);
  }
});

test('a key may not be in data and binaryData', () => {
  const errors = configMaps().validate({ metadata: { name: 'c' }, data: { k: 'v' }, binaryData: { k: 'AA==' } }, ctx());
  assert.deepEqual(messages(errors), ['data[k]: Invalid value: "k": duplicate of key present in binaryData']);
});

test('the payload is limited to 1 MiB in total', () => {
  const half = 'x'.repeat(512 * 1024);
  assert.deepEqual(configMaps().validate({ metadata: { name: 'c' }, data: { a: half, b: half } }, ctx()), []);
  const errors = configMaps().validate({ metadata: { name: 'c' }, data: { a: half, b: half + 'y' } }, ctx());
  assert.deepEqual(messages(errors), ['[]: Too long: may not be more than 1048576 bytes']);
});

test('immutable config maps keep their data and flag', () => {
  const old = { metadata: { name: 'c' }, data: { a: '1' }, binaryData: { b: 'AA==' }, immutable: true };
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['unchanged', { ...old }, []],
    ['labels may change', { ...old, metadata: { name: 'c', labels: { x: 'y' } } }, []],
    ['data', { ...old, data: { a: '2' } }, [`data: ${IMMUTABLE}`]],
    ['binaryData', { ...old, binaryData: {} }, [`binaryData: ${IMMUTABLE}`]],
    ['unset immutable', { ...old, immutable: false }, [`immutable: ${IMMUTABLE}`]],
  ];
  for (const [name, object, expected] of cases) {
    assert.deepEqual(messages(configMaps().validateUpdate(object, old, ctx())), expected, name);
  }
  assert.deepEqual(configMaps().validateUpdate({ ...old, data: { a: '2' } }, { ...old, immutable: false }, ctx()), []);
});
