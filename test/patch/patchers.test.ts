import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors.js';
import { applyPatch, patchAppliers } from '../../src/patch/patchers.js';
import type { PatchRequest } from '../../src/patch/patch-request.js';
import { PatchKind } from '../../src/serialization/patch-content-type.js';

const request = (body: unknown): PatchRequest => ({ current: { data: { a: 'b' } }, body: Buffer.from(JSON.stringify(body)), fieldValidation: 'Warn' });

describe('patch appliers', () => {
  const appliers = patchAppliers();

  it('dispatches JSON patch', () => {
    assert.deepEqual(applyPatch(PatchKind.JsonPatch, request([{ op: 'add', path: '/data/c', value: 'd' }]), appliers).value, { data: { a: 'b', c: 'd' } });
  });

  it('dispatches merge patch', () => {
    assert.deepEqual(applyPatch(PatchKind.MergePatch, request({ data: { a: null } }), appliers).value, { data: {} });
  });

  it('answers kinds without an applier with 415 listing those on offer', () => {
    assert.throws(
      () => applyPatch(PatchKind.StrategicMergePatch, request({}), appliers),
      (err: unknown) =>
        err instanceof ApiError &&
        err.code === 415 &&
        err.message === 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json',
    );
  });

  it('takes extra appliers for schema-driven kinds', () => {
    const withSmp = patchAppliers({ [PatchKind.StrategicMergePatch]: (r) => ({ value: { smp: r.fieldValidation }, strictErrors: [] }) });
    assert.deepEqual(applyPatch(PatchKind.StrategicMergePatch, request({}), withSmp).value, { smp: 'Warn' });
    assert.equal(withSmp.size, 3);
  });
});
