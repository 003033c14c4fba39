import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { invalid } from '../../src/api/errors.js';
import type { FieldError } from '../../src/api/errors.js';
import { validateObjectMeta } from '../../src/validation/object-meta.js';
import type { ObjectMetaRules } from '../../src/validation/object-meta.js';
import type { ObjectMetaInput } from '../../src/validation/metadata-input.js';
import { nameIsDnsLabel, nameIsDnsSubdomain } from '../../src/validation/name-validators.js';

const namespaced: ObjectMetaRules = { nameValidator: nameIsDnsSubdomain, namespaced: true };
const clusterScoped: ObjectMetaRules = { nameValidator: nameIsDnsLabel, namespaced: false };
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const base: ObjectMetaInput = { name: 'cm1', namespace: 'golden' };

interface Case {
  name: string;
  meta: ObjectMetaInput;
  rules?: ObjectMetaRules;
  want: FieldError[];
}

const inv = (field: string, message: string): FieldError => ({ type: 'FieldValueInvalid', field, message });

const cases: Case[] = [
  { name: 'valid', meta: base, want: [] },
  { name: 'valid with everything', meta: { ...base, generateName: 'cm-', labels: { app: 'web', 'example.com/tier': '' }, annotations: { 'Example.com/Note': 'x' }, finalizers: ['example.com/f'], generation: 1 }, want: [] },
  { name: 'invalid name (golden)', meta: { name: 'Bad_Name', namespace: 'golden' }, want: [inv('metadata.name', `Invalid value: "Bad_Name": ${SUBDOMAIN}`)] },
  { name: 'missing name', meta: { namespace: 'golden' }, want: [{ type: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' }] },
  { name: 'invalid generateName', meta: { ...base, generateName: 'Bad-' }, want: [inv('metadata.generateName', `Invalid value: "Bad-": ${SUBDOMAIN}`)] },
  { name: 'missing namespace', meta: { name: 'cm1' }, want: [{ type: 'FieldValueRequired', field: 'metadata.namespace', message: 'Required value' }] },
  { name: 'invalid namespace', meta: { name: 'cm1', namespace: 'a.b' }, want: [inv('metadata.namespace', 'Invalid value: "a.b": must not contain dots')] },
  { name: 'namespace on a cluster-scoped type', meta: base, rules: clusterScoped, want: [{ type: 'FieldValueForbidden', field: 'metadata.namespace', message: 'Forbidden: not allowed on this type' }] },
  { name: 'cluster-scoped name rule', meta: { name: 'a.b' }, rules: clusterScoped, want: [inv('metadata.name', 'Invalid value: "a.b": must not contain dots')] },
  { name: 'cluster-scoped bad name', meta: { name: 'A' }, rules: clusterScoped, want: [inv('metadata.name', `Invalid value: "A": ${LABEL}`)] },
  { name: 'negative generation', meta: { ...base, generation: -1 }, want: [inv('metadata.generation', 'Invalid value: -1: must be greater than or equal to 0')] },
  {
    name: 'bad label key and value',
    meta: { ...base, labels: { 'a b': 'ok', good: '-bad' } },
    want: [inv('metadata.labels', `Invalid value: "a b": ${NAME_PART}`), inv('metadata.labels', `Invalid value: "-bad": ${LABEL_VALUE}`)],
  },
  { name: 'bad annotation key', meta: { ...base, annotations: { 'a/b/c': 'x' } }, want: [inv('metadata.annotations', `Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`)] },
  { name: 'annotations at the size limit', meta: { ...base, annotations: { k: 'v'.repeat(256 * 1024 - 1) } }, want: [] },
  {
    name: 'annotations over the size limit',
    meta: { ...base, annotations: { k: 'v'.repeat(256 * 1024) } },
    want: [{ type: 'FieldValueTooLong', field: 'metadata.annotations', message: 'Too long: may not be more than 262144 bytes' }],
  },
  { name: 'annotation size counts bytes', meta: { ...base, annotations: { k: 'é'.repeat(128 * 1024) } }, want: [{ type: 'FieldValueTooLong', field: 'metadata.annotations', message: 'Too long: may not be more than 262144 bytes' }] },
  {
    name: 'owner reference missing fields',
    meta: { ...base, ownerReferences: [{ apiVersion: 'apps/', kind: '', name: '', uid: '' }] },
    want: [
      inv('metadata.ownerReferences.apiVersion', 'Invalid value: "apps/": version must not be empty'),
      inv('metadata.ownerReferences.kind', 'Invalid value: "": kind must not be empty'),
      inv('metadata.ownerReferences.name', 'Invalid value: "": name must not be empty'),
      inv('metadata.ownerReferences.uid', 'Invalid value: "": uid must not be empty'),
    ],
  },
  {
    name: 'events cannot own',
    meta: { ...base, ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }] },
    want: [
      inv(
        'metadata.ownerReferences',
        'Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner',
      ),
    ],
  },
  {
    name: 'two controllers',
    meta: {
      ...base,
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: '2', controller: true },
      ],
    },
    want: [
      inv(
        'metadata.ownerReferences',
        'Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"a","uid":"1","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"b","uid":"2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b',
      ),
    ],
  },
  { name: 'bad finalizer', meta: { ...base, finalizers: ['a b'] }, want: [inv('metadata.finalizers', `Invalid value: "a b": ${NAME_PART}`)] },
  {
    name: 'conflicting deletion finalizers',
    meta: { ...base, finalizers: ['orphan', 'foregroundDeletion'] },
    want: [inv('metadata.finalizers', 'Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set')],
  },
  {
    name: 'managed fields',
    meta: { ...base, managedFields: [{ manager: 'ok', operation: 'Update', fieldsType: 'FieldsV1' }, { manager: 'bad\u0007', operation: 'Patch', fieldsType: 'FieldsV2', subresource: 's'.repeat(257) }] },
    want: [
      inv('metadata.managedFields[1].operation', 'Invalid value: "Patch": must be `Apply` or `Update`'),
      inv('metadata.managedFields[1].fieldsType', 'Invalid value: "FieldsV2": must be `FieldsV1`'),
      inv('metadata.managedFields[1].manager', 'Invalid value: "bad\\a": invalid character U+0007 (at position 3)'),
      { type: 'FieldValueTooLong', field: 'metadata.managedFields[1].subresource', message: 'Too long: may not be more than 256 bytes' },
    ],
  },
  {
    name: 'long field manager',
    meta: { ...base, managedFields: [{ manager: 'm'.repeat(129), operation: 'Apply' }] },
    want: [{ type: 'FieldValueTooLong', field: 'metadata.managedFields[0].manager', message: 'Too long: may not be more than 128 bytes' }],
  },
];

describe('validateObjectMeta', () => {
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(validateObjectMeta(c.meta, c.rules ?? namespaced), c.want));
  }

  it('builds the golden 422 for an invalid name', () => {
    const errs = validateObjectMeta({ name: 'Bad_Name', namespace: 'golden' }, namespaced);
    // shared/reference/golden-1.32/http/create-422-invalid-name.txt
    assert.deepEqual(invalid('ConfigMap', '', 'Bad_Name', errs).toStatus(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN}`,
      reason: 'Invalid',
      details: {
        name: 'Bad_Name',
        kind: 'ConfigMap',
        causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: "Bad_Name": ${SUBDOMAIN}`, field: 'metadata.name' }],
      },
      code: 422,
    });
  });

  it('uses the given path prefix', () => {
    assert.deepEqual(
      validateObjectMeta({ name: 'x' }, namespaced, 'spec.template.metadata').map((e) => e.field),
      ['spec.template.metadata.namespace'],
    );
  });
});
