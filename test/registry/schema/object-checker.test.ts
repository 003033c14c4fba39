import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ObjectChecker } from '../../../src/registry/schema/object-checker.js';
import { SchemaSet, loadBuiltinSchemas } from '../../../src/registry/schema/schema-set.js';
import { strictDecodingError, unknownFieldMessage } from '../../../src/serialization/object-decode.js';
import type { SchemaNode } from '../../../src/registry/schema/schema-node.js';

const schemas = loadBuiltinSchemas();
const checker = new ObjectChecker(schemas);
const POD = 'io.k8s.api.core.v1.Pod';
const CONFIG_MAP = 'io.k8s.api.core.v1.ConfigMap';

const pod = (container: Record<string, unknown>) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox', ...container }] },
});

test('unknown fields at the top and in metadata, in document order (golden strict response)', () => {
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm2', bogus: 1 }, data: { a: 'b' }, extra: true };
  const result = checker.checkObject(CONFIG_MAP, body);
  assert.deepEqual(result.unknownFields, ['metadata.bogus', 'extra']);
  assert.deepEqual(result.pruned, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm2' }, data: { a: 'b' } });
  assert.equal((body.metadata as Record<string, unknown>).bogus, 1, 'input is not mutated');
  assert.equal(result.decodeError, undefined);
  assert.equal(
    // The words the create handler answers with (object-body.ts), from the checker's findings.
    strictDecodingError({ group: '', version: 'v1', kind: 'ConfigMap' }, 'ConfigMap', [...result.unknownFields.map(unknownFieldMessage), 'duplicate field "data"']).message,
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.bogus", unknown field "extra", duplicate field "data"',
  );
});

test('unknown fields inside lists carry the index', () => {
  const result = checker.checkObject(POD, pod({ foo: 1, ports: [{ containerPort: 80, bar: 2 }] }));
  assert.deepEqual(result.unknownFields, ['spec.containers[0].foo', 'spec.containers[0].ports[0].bar']);
  const pruned = result.pruned as ReturnType<typeof pod>;
  assert.deepEqual(pruned.spec.containers[0], { name: 'c', image: 'busybox', ports: [{ containerPort: 80 }] });
});

test('an object without unknown fields comes back as the same reference', () => {
  const body = pod({ resources: { limits: { cpu: '100m', memory: 1024 } } });
  const result = checker.checkObject(POD, body);
  assert.equal(result.pruned, body);
  assert.deepEqual(result.unknownFields, []);
  assert.deepEqual(result.typeErrors, []);
});

test('unknown fields under map keys include the key', () => {
  const crd = {
    spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', bogus: true } } } } }] },
  };
  const result = checker.checkObject('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition', crd);
  assert.deepEqual(result.unknownFields, ['spec.versions[0].schema.openAPIV3Schema.properties.spec.bogus']);
});

test('empty structs reject every field, raw extensions accept anything', () => {
  const crd = { spec: { versions: [{ name: 'v1', subresources: { status: { x: 1 } } }] } };
  const result = checker.checkObject('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition', crd);
  assert.deepEqual(result.unknownFields, ['spec.versions[0].subresources.status.x']);
  const revision = { data: { anything: [1, { goes: true }] }, revision: 1 };
  assert.deepEqual(checker.checkObject('io.k8s.api.apps.v1.ControllerRevision', revision).unknownFields, []);
});

const typeCases: readonly { name: string; definition: string; body: unknown; error: string }[] = [
  {
    name: 'number into a map of strings',
    definition: CONFIG_MAP,
    body: { data: { a: 1 } },
    error: 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
  },
  {
    name: 'string into an int32 pointer',
    definition: 'io.k8s.api.apps.v1.Deployment',
    body: { spec: { replicas: '3' } },
    error: 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
  },
  {
    name: 'fraction into an integer',
    definition: 'io.k8s.api.apps.v1.Deployment',
    body: { spec: { replicas: 1.5 } },
    error: 'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
  },
  {
    name: 'number in a list item names the innermost struct and no index',
    definition: POD,
    body: pod({ image: 5 }),
    error: 'json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string',
  },
  {
    name: 'string into a struct',
    definition: 'io.k8s.api.apps.v1.Deployment',
    body: { spec: 'x' },
    error: 'json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec',
  },
  {
    name: 'object into a list',
    definition: POD,
    body: { spec: { containers: {} } },
    error: 'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container',
  },
  {
    name: 'array at the top level',
    definition: CONFIG_MAP,
    body: [],
    error: 'json: cannot unmarshal array into Go value of type v1.ConfigMap',
  },
  {
    name: 'bool into an int-or-string',
    definition: 'io.k8s.api.core.v1.Service',
    body: { spec: { ports: [{ port: 80, targetPort: true }] } },
    error: 'json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32',
  },
  {
    name: 'malformed quantity',
    definition: POD,
    body: pod({ resources: { limits: { cpu: 'lots' } } }),
    error: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
  },
  {
    name: 'quantity with an unknown suffix',
    definition: POD,
    body: pod({ resources: { limits: { memory: '1Zi' } } }),
    error: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
  },
  {
    name: 'number into a time',
    definition: CONFIG_MAP,
    body: { metadata: { creationTimestamp: 5 } },
    error: 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string',
  },
  {
    name: 'unparsable time',
    definition: CONFIG_MAP,
    body: { metadata: { creationTimestamp: 'yesterday' } },
    error: 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
  },
  {
    name: 'invalid base64 in a Secret',
    definition: 'io.k8s.api.core.v1.Secret',
    body: { data: { key: 'no*base64' } },
    error: 'illegal base64 data at input byte 2',
  },
];

for (const c of typeCases) {
  test(`type error: ${c.name}`, () => {
    assert.equal(checker.checkObject(c.definition, c.body).decodeError, c.error);
  });
}

test('valid special values pass', () => {
  const service = { spec: { ports: [{ port: 80, targetPort: 'http' }, { port: 81, targetPort: 8081 }] } };
  assert.equal(checker.checkObject('io.k8s.api.core.v1.Service', service).decodeError, undefined);
  const meta = { metadata: { creationTimestamp: '2024-05-01T10:00:00Z', deletionTimestamp: '2024-05-01T10:00:00.5+02:00' } };
  assert.equal(checker.checkObject(CONFIG_MAP, meta).decodeError, undefined);
  const lease = { spec: { renewTime: '2024-05-01T10:00:00.000000Z' } };
  assert.equal(checker.checkObject('io.k8s.api.coordination.v1.Lease', lease).decodeError, undefined);
  assert.equal(checker.checkObject('io.k8s.api.core.v1.Secret', { data: { k: 'aGVsbG8=' } }).decodeError, undefined);
  assert.equal(checker.checkObject(POD, pod({ resources: { requests: { cpu: 0.5, memory: '1.5Gi' } } })).decodeError, undefined);
});

test('type errors are all listed, and a self-decoding failure wins', () => {
  const result = checker.checkObject(POD, pod({ image: 5, resources: { limits: { cpu: 'x' } } }));
  assert.equal(result.typeErrors.length, 1);
  assert.equal(result.typeErrors[0]?.path, 'spec.containers[0].image');
  assert.match(result.decodeError ?? '', /^quantities must match/);
});

test('nulls are accepted anywhere', () => {
  assert.equal(checker.checkObject(POD, { metadata: null, spec: { containers: null } }).decodeError, undefined);
});

test('preserve-unknown-fields keeps unknown fields without reporting them', () => {
  const definitions = new Map<string, SchemaNode>([
    ['example.Widget', { type: 'object', properties: { spec: { type: 'object', preserveUnknownFields: true, properties: { size: { type: 'integer' } } } } }],
  ]);
  const widgets = new ObjectChecker(new SchemaSet(definitions));
  const result = widgets.checkObject('example.Widget', { spec: { size: 1, color: 'red' }, status: {} });
  assert.deepEqual(result.unknownFields, ['status']);
  assert.deepEqual(result.pruned, { spec: { size: 1, color: 'red' } });
});

test('at most 100 unknown fields are listed', () => {
  const metadata: Record<string, number> = {};
  for (let i = 0; i < 150; i++) metadata[`f${i}`] = i;
  const result = checker.checkObject(CONFIG_MAP, { metadata });
  assert.equal(result.unknownFields.length, 100);
  assert.deepEqual(result.pruned, { metadata: {} });
});

test('unknown definitions are a programming error', () => {
  assert.throws(() => checker.checkObject('io.example.Nope', {}), /no definition/);
});

test('checking a pod is fast once compiled', () => {
  const body = pod({ env: [{ name: 'A', value: 'b' }], resources: { limits: { cpu: '1' } }, ports: [{ containerPort: 80 }] });
  checker.checkObject(POD, body);
  const start = performance.now();
  for (let i = 0; i < 10_000; i++) checker.checkObject(POD, body);
  const perCheck = (performance.now() - start) / 10_000;
  assert.ok(perCheck < 0.1, `${perCheck.toFixed(4)} ms per check`);
});
