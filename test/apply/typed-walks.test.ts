import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldTypes } from '../../src/apply/field-types.js';
import { pathString } from '../../src/apply/path-element.js';
import { compare, fieldSetOf, merge } from '../../src/apply/typed-walks.js';
import { loadBuiltinSchemas } from '../../src/registry/schema/schema-set.js';

const types = new FieldTypes(loadBuiltinSchemas());
const pod = types.root('io.k8s.api.core.v1.Pod');
const paths = (s: { paths(): readonly unknown[] }) => s.paths().map((p) => pathString(p as never));

describe('typed walks', () => {
  it('fieldSetOf owns leaves, map entries, list items and atomic values whole (args, nodeSelector)', () => {
    const set = fieldSetOf(types, pod, { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', args: ['x', 'y'] }], nodeSelector: { k: 'v' } } });
    assert.deepEqual(paths(set), [
      '.metadata.labels.a',
      '.spec.containers[name="c"]',
      '.spec.containers[name="c"].args',
      '.spec.containers[name="c"].name',
      '.spec.nodeSelector',
    ]);
  });

  it('compare reports added parents as well as leaves', () => {
    const c = compare(types, pod, { metadata: { name: 'p' } }, { metadata: { name: 'q', labels: { a: 'b' } } });
    assert.deepEqual(paths(c.added), ['.metadata.labels', '.metadata.labels.a']);
    assert.deepEqual(paths(c.modified), ['.metadata.name']);
    assert.deepEqual(paths(c.removed), []);
  });

  it('merge keeps live items the configuration does not name in place and follows its order for the rest', () => {
    const live = { spec: { containers: [{ name: 'a' }, { name: 'x', image: 'old' }, { name: 'b' }] } };
    const config = { spec: { containers: [{ name: 'b' }, { name: 'x', image: 'new' }, { name: 'n' }] } };
    const merged = merge(types, pod, live, config) as typeof live;
    assert.deepEqual(merged.spec.containers.map((c) => c.name), ['a', 'b', 'x', 'n']);
    assert.equal(merged.spec.containers[2]!.image, 'new');
    assert.deepEqual(live.spec.containers[1], { name: 'x', image: 'old' });
  });

  it('merge keeps live duplicates the configuration does not name, and makes those it names one', () => {
    const live = { spec: { containers: [{ name: 'c', env: [{ name: 'A', value: '1' }, { name: 'B', value: '1' }, { name: 'A', value: '2' }, { name: 'B', value: '2' }] }] } };
    const config = { spec: { containers: [{ name: 'c', env: [{ name: 'B', value: '3' }] }] } };
    const merged = merge(types, pod, live, config) as typeof live;
    assert.deepEqual(merged.spec.containers[0]!.env, [{ name: 'A', value: '1' }, { name: 'B', value: '3' }, { name: 'A', value: '2' }]);
  });
});
