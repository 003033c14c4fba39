import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fieldInvalid, fieldNotSupported, goJsonMap, goStringSlice } from '../../src/validation/field-errors.js';

describe('field error values, as 1.35 prints them', () => {
  const message = (value: unknown) => fieldInvalid('f', value, 'why').message;

  it('strings quoted as %q, numbers and booleans bare', () => {
    assert.equal(message('a"b'), 'Invalid value: "a\\"b": why');
    assert.equal(message(5), 'Invalid value: 5: why');
    assert.equal(message(0.5), 'Invalid value: 0.5: why');
    assert.equal(message(true), 'Invalid value: true: why');
  });

  it('lists, maps and null as encoding/json writes them, HTML-safe', () => {
    assert.equal(message(['a', 'b']), 'Invalid value: ["a","b"]: why');
    assert.equal(message(null), 'Invalid value: null: why');
    assert.equal(message({ tag: '<b>&' }), 'Invalid value: {"tag":"\\u003cb\\u003e\\u0026"}: why');
    assert.equal(fieldNotSupported('dryRun', ['Foo'], ['All']).message, 'Unsupported value: ["Foo"]: supported values: "All"');
  });

  it('a Go map with its keys sorted, nil as null', () => {
    assert.equal(message(goJsonMap({ z: '1', a: '2' })), 'Invalid value: {"a":"2","z":"1"}: why');
    assert.equal(message(goJsonMap(undefined)), 'Invalid value: null: why');
  });

  it('Go syntax where a detail formats with %#v', () => {
    assert.equal(goStringSlice(['b', 'z']).text, '[]string{"b", "z"}');
  });
});
