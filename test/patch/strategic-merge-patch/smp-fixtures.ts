/** Shared objects and helpers for the strategic merge patch tests: real built-in schemas, live objects. */
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors.js';
import type { FieldValidation, PatchResult } from '../../../src/patch/patch-request.js';
import { strategicMergePatchApplier } from '../../../src/patch/strategic-merge-patch/strategic-merge-patch.js';
import { loadBuiltinSchemas } from '../../../src/registry/schema/schema-set.js';

export type Json = Record<string, any>;

const schemas = loadBuiltinSchemas();

export const POD = 'io.k8s.api.core.v1.Pod';
export const DEPLOYMENT = 'io.k8s.api.apps.v1.Deployment';
export const PDB = 'io.k8s.api.policy.v1.PodDisruptionBudget';

/** Applies `patch` (an object, or raw body text) to `current` with the schema of `definition`. */
export function smp(definition: string, current: Json, patch: unknown, fieldValidation: FieldValidation = 'Warn'): PatchResult {
  const body = Buffer.from(typeof patch === 'string' ? patch : JSON.stringify(patch));
  return strategicMergePatchApplier(schemas, definition)({ current, body, fieldValidation });
}

export function pod(): Json {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web', tier: 'front' }, annotations: { note: 'x' }, finalizers: ['a.io/one', 'b.io/two'] },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'nginx:1.25',
          args: ['--port', '80'],
          env: [
            { name: 'MODE', value: 'prod' },
            { name: 'LEVEL', value: 'info' },
          ],
          ports: [
            { containerPort: 80, protocol: 'TCP', name: 'http' },
            { containerPort: 443, protocol: 'TCP', name: 'https' },
          ],
        },
        { name: 'sidecar', image: 'busybox', command: ['sleep', 'infinity'] },
      ],
      tolerations: [{ key: 'k1', operator: 'Exists' }],
      volumes: [{ name: 'data', emptyDir: {} }],
    },
  };
}

export function deployment(): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] },
      },
    },
  };
}

/** A copy of `base` changed by `edit`, for expected values. */
export function edited(base: Json, edit: (d: Json) => void): Json {
  const copy = structuredClone(base);
  edit(copy);
  return copy;
}

/** Asserts that `fn` throws an ApiError with this status code, reason and message. */
export function assertApiError(fn: () => unknown, code: number, reason: string, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, `not an ApiError: ${String(err)}`);
    assert.deepEqual({ code: err.code, reason: err.reason, message: err.message }, { code, reason, message });
    return true;
  });
}
