import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PatchSchema } from '../../../src/patch/strategic-merge-patch/patch-schema.js';
import { loadBuiltinSchemas } from '../../../src/registry/schema/schema-set.js';
import { POD, assertApiError, smp } from './smp-fixtures.js';

const schemas = loadBuiltinSchemas();
const podSpec = () => PatchSchema.forDefinition(schemas, POD).forMap('spec').schema;

describe('patch metadata lookup', () => {
  it('reads strategy and merge key from the field, beside its ref', () => {
    const { schema, meta } = podSpec().forList('containers');
    assert.deepEqual(meta, { strategies: ['merge'], mergeKey: 'name' });
    assert.equal(schema.kind, 'struct');
    assert.deepEqual(podSpec().forList('volumes').meta, { strategies: ['merge', 'retainKeys'], mergeKey: 'name' });
    assert.deepEqual(PatchSchema.forDefinition(schemas, 'io.k8s.api.apps.v1.DeploymentSpec').forMap('strategy').meta, { strategies: ['retainKeys'], mergeKey: '' });
  });

  it('has no metadata for a field without patch tags, list-type map or not', () => {
    assert.deepEqual(podSpec().forList('tolerations').meta, { strategies: [], mergeKey: '' });
    const requirements = podSpec().forList('containers').schema.forMap('resources').schema;
    assert.deepEqual(requirements.forList('claims').meta, { strategies: [], mergeKey: '' });
  });

  it('gives the element kind of a list of scalars', () => {
    const meta = PatchSchema.forDefinition(schemas, POD).forMap('metadata').schema.forList('finalizers');
    assert.equal(meta.schema.kind, 'string');
    assert.deepEqual(meta.meta, { strategies: ['merge'], mergeKey: '' });
  });

  it('matches a field name case-insensitively when nothing matches exactly, as Go', () => {
    assert.deepEqual(podSpec().forList('Containers').meta.mergeKey, 'name');
  });

  it("fails as upstream's lookup fails", () => {
    assertApiError(() => podSpec().forMap('nope'), 500, '', 'unable to find api field in struct PodSpec for the json field "nope"');
    assertApiError(() => PatchSchema.forDefinition(schemas, POD).forList('metadata'), 500, '', 'expected slice or array type, but got: struct');
    const labels = PatchSchema.forDefinition(schemas, POD).forMap('metadata').schema.forMap('labels').schema;
    assertApiError(() => labels.forMap('a'), 500, '', 'merging an object in json but data type is not struct, instead is: map');
  });

  it('refuses an unknown definition (a wiring mistake)', () => {
    assert.throws(() => PatchSchema.forDefinition(schemas, 'io.k8s.api.core.v1.Nope'), /no schema definition io\.k8s\.api\.core\.v1\.Nope/);
  });
});

describe('strategic merge patch inside values without patch metadata', () => {
  it('fails merging lists inside a map-typed field, as upstream (CSR spec.extra)', () => {
    const current = { spec: { extra: { groups: ['a'] } } };
    assertApiError(
      () => smp('io.k8s.api.certificates.v1.CertificateSigningRequest', current, { spec: { extra: { groups: ['b'] } } }),
      500,
      '',
      'merging an object in json but data type is not struct, instead is: map',
    );
  });

  it('replaces a map-typed value of another type without looking anything up', () => {
    const current = { spec: { extra: { groups: ['a'] } } };
    const value = smp('io.k8s.api.certificates.v1.CertificateSigningRequest', current, { spec: { extra: { groups: 'b', more: ['c'] } } }).value;
    assert.deepEqual(value, { spec: { extra: { groups: 'b', more: ['c'] } } });
  });

  it('fails merging maps inside a RawExtension, as upstream (ControllerRevision data)', () => {
    const current = { data: { spec: { a: 1 } }, revision: 1 };
    assertApiError(
      () => smp('io.k8s.api.apps.v1.ControllerRevision', current, { data: { spec: { b: 2 } } }),
      500,
      '',
      'unable to find api field in struct RawExtension for the json field "spec"',
    );
  });
});
