import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '../../src/api/errors.js';
import { validateObjectMetaUpdate } from '../../src/validation/object-meta-update.js';
import type { ObjectMetaInput } from '../../src/validation/metadata-input.js';

const old: ObjectMetaInput = {
  name: 'cm1',
  namespace: 'golden',
  uid: '26100d22-6fe1-4d36-99a8-ed442b4d7ee6',
  resourceVersion: '211',
  generation: 2,
  creationTimestamp: '2026-11-21T08:42:17Z',
  finalizers: ['example.com/a'],
};

const inv = (field: string, message: string): FieldError => ({ type: 'FieldValueInvalid', field, message });

const cases: { name: string; next: ObjectMetaInput; previous?: ObjectMetaInput; want: FieldError[] }[] = [
  { name: 'unchanged', next: old, want: [] },
  { name: 'labels may change', next: { ...old, labels: { a: 'b' } }, want: [] },
  { name: 'missing resourceVersion', next: { ...old, resourceVersion: '' }, want: [inv('metadata.resourceVersion', 'Invalid value: "": must be specified for an update')] },
  { name: 'generation decremented', next: { ...old, generation: 1 }, want: [inv('metadata.generation', 'Invalid value: 1: must not be decremented')] },
  { name: 'name changed', next: { ...old, name: 'cm2' }, want: [inv('metadata.name', 'Invalid value: "cm2": field is immutable')] },
  { name: 'namespace changed', next: { ...old, namespace: 'other' }, want: [inv('metadata.namespace', 'Invalid value: "other": field is immutable')] },
  { name: 'uid changed', next: { ...old, uid: 'x' }, want: [inv('metadata.uid', 'Invalid value: "x": field is immutable')] },
  {
    name: 'creationTimestamp changed',
    next: { ...old, creationTimestamp: '2026-11-22T00:00:00Z' },
    want: [inv('metadata.creationTimestamp', 'Invalid value: "2026-11-22T00:00:00Z": field is immutable')],
  },
  {
    name: 'creationTimestamp cleared',
    next: { ...old, creationTimestamp: null },
    want: [inv('metadata.creationTimestamp', 'Invalid value: null: field is immutable')],
  },
  {
    name: 'deletionTimestamp set',
    next: { ...old, deletionTimestamp: '2026-11-22T00:00:00Z' },
    want: [inv('metadata.deletionTimestamp', 'Invalid value: "2026-11-22T00:00:00Z": field is immutable')],
  },
  {
    name: 'deletionTimestamp cleared',
    next: old,
    previous: { ...old, deletionTimestamp: '2026-11-22T00:00:00Z' },
    want: [inv('metadata.deletionTimestamp', 'Invalid value: null: field is immutable')],
  },
  { name: 'grace period changed', next: { ...old, deletionGracePeriodSeconds: 30 }, want: [inv('metadata.deletionGracePeriodSeconds', 'Invalid value: 30: field is immutable')] },
  {
    name: 'no new finalizers while deleting',
    next: { ...old, deletionTimestamp: 'x', finalizers: ['z', 'example.com/a', 'b'] },
    previous: { ...old, deletionTimestamp: 'x' },
    want: [
      {
        type: 'FieldValueForbidden',
        field: 'metadata.finalizers',
        message: 'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b", "z"}',
      },
    ],
  },
  { name: 'finalizers may be removed while deleting', next: { ...old, deletionTimestamp: 'x', finalizers: [] }, previous: { ...old, deletionTimestamp: 'x' }, want: [] },
  { name: 'new labels are validated', next: { ...old, labels: { a: '-' } }, want: [inv('metadata.labels', `Invalid value: "-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`)] },
  {
    name: 'several problems in upstream order',
    next: { ...old, resourceVersion: '', name: 'x', uid: 'y' },
    want: [
      inv('metadata.resourceVersion', 'Invalid value: "": must be specified for an update'),
      inv('metadata.name', 'Invalid value: "x": field is immutable'),
      inv('metadata.uid', 'Invalid value: "y": field is immutable'),
    ],
  },
];

describe('validateObjectMetaUpdate', () => {
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(validateObjectMetaUpdate(c.next, c.previous ?? old), c.want));
  }
});
