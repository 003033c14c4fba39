import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldSet } from '../../src/apply/field-set.js';
import { fieldElement, keyElement, pathString, valueElement, indexElement } from '../../src/apply/path-element.js';

const f = fieldElement;

describe('FieldSet', () => {
  it('reads and writes FieldsV1 in element order, "." marking a member that is also a parent', () => {
    const fieldsV1 = {
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {} } }, 'f:replicas': {} },
    };
    const set = FieldSet.fromFieldsV1(fieldsV1);
    assert.deepEqual(set.toFieldsV1(), fieldsV1);
    assert.ok(set.has([f('metadata'), f('labels')]));
    assert.ok(!set.has([f('metadata')]));
    assert.deepEqual(set.paths().map(pathString), ['.metadata.labels', '.metadata.labels.app', '.spec.containers[name="a"]', '.spec.containers[name="a"].image', '.spec.replicas']);
  });

  it('orders fields before keys, values and indexes', () => {
    const set = FieldSet.of([[indexElement(1)], [valueElement('x')], [keyElement([['b', 1], ['a', 'z']])], [f('z')]]);
    assert.deepEqual(Object.keys(set.toFieldsV1()), ['f:z', 'k:{"a":"z","b":1}', 'v:"x"', 'i:1']);
    assert.equal(pathString([f('p'), keyElement([['containerPort', 80], ['protocol', 'TCP']])]), '.p[containerPort=80,protocol="TCP"]');
  });

  it('unions, subtracts and intersects path by path; withoutTrees drops whole subtrees', () => {
    const a = FieldSet.of([[f('a')], [f('b'), f('c')], [f('b'), f('d')]]);
    const b = FieldSet.of([[f('b'), f('c')], [f('e')]]);
    assert.deepEqual(a.union(b).paths().map(pathString), ['.a', '.b.c', '.b.d', '.e']);
    assert.deepEqual(a.difference(b).paths().map(pathString), ['.a', '.b.d']);
    assert.deepEqual(a.intersection(b).paths().map(pathString), ['.b.c']);
    assert.deepEqual(a.withoutTrees(FieldSet.of([[f('b')]])).paths().map(pathString), ['.a']);
  });

  it('refuses what is not FieldsV1', () => {
    assert.throws(() => FieldSet.fromFieldsV1({ 'x:y': {} }), /unknown path element/);
    assert.throws(() => FieldSet.fromFieldsV1({ 'f:y': 1 }), /expected an object/);
  });
});
