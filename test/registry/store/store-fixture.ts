/**
 * Shared fixture of the generic store tests: the real Registry over a real SQLite storage (inline
 * writer, in a fresh temporary directory), the real strategies, a clock that only moves when a test
 * moves it and uids numbered in order, so every timestamp and uid a test sees is known in advance.
 * Services are not used here, so no allocators are wired (src/app/strategies.ts adds them).
 */
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors.js';
import { loadBuiltinCatalog } from '../../../src/registry/catalog/builtin-catalog.js';
import type { ResourceDefinition } from '../../../src/registry/catalog/resource-definition.js';
import { KeyLayout } from '../../../src/registry/keys.js';
import { decodeFromStorage } from '../../../src/registry/object-codec.js';
import type { KubeObject } from '../../../src/registry/object.js';
import { Registry } from '../../../src/registry/registry.js';
import { loadBuiltinSchemas } from '../../../src/registry/schema/schema-set.js';
import { schemaFieldsFrom } from '../../../src/registry/strategies/schema-fields.js';
import { BUILTIN_NAME_VALIDATORS, DEFAULT_POD_OPTIONS, type StrategyDeps } from '../../../src/registry/strategies/strategy-deps.js';
import { strategyFor } from '../../../src/registry/strategies/strategy-table.js';
import type { ResourceStore } from '../../../src/registry/store/resource-store.js';
import type { WriteOptions } from '../../../src/registry/store/store-context.js';
import { Cacher } from '../../../src/storage/cacher/cacher.js';
import type { SqliteStorage } from '../../../src/storage/sqlite/sqlite-storage.js';
import { withTempStore } from '../../storage/sqlite/temp-store.js';

/** The fixed start of the test clock: 2026-01-02T03:04:05Z. */
export const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);
export const NOW_STAMP = '2026-01-02T03:04:05Z';

/** A plain write to the main resource. */
export const WRITE: WriteOptions = { dryRun: false, subresource: '' };
export const DRY_RUN: WriteOptions = { dryRun: true, subresource: '' };

const catalog = loadBuiltinCatalog();
const deps: StrategyDeps = {
  validateName: BUILTIN_NAME_VALIDATORS,
  schemaFields: schemaFieldsFrom(loadBuiltinSchemas()),
  allocators: {},
  pods: DEFAULT_POD_OPTIONS,
};

export interface StoreFixture {
  readonly storage: SqliteStorage;
  /** For wiring what the server adds on top (the namespace gate). */
  readonly registry: Registry;
  /** The store of a built-in type, e.g. ('', 'configmaps') or ('apps', 'deployments'). */
  store(group: string, resource: string): ResourceStore;
  /** Moves the clock forward. */
  advance(ms: number): void;
}

/** The types these tests use; their caches are filled before a test starts. */
const DEFINITIONS: readonly ResourceDefinition[] = (
  [
    ['', 'configmaps'],
    ['', 'pods'],
    ['', 'namespaces'],
    ['', 'serviceaccounts'],
    ['apps', 'deployments'],
    ['coordination.k8s.io', 'leases'],
    ['rbac.authorization.k8s.io', 'clusterroles'],
  ] as const
).map(([group, resource]) => {
  const found = catalog.resource(group, 'v1', resource);
  assert.ok(found, `no definition ${group}/v1/${resource}`);
  return found;
});

function definitionOf(group: string, resource: string): ResourceDefinition {
  const found = DEFINITIONS.find((d) => d.group === group && d.resource === resource);
  assert.ok(found, `${group}/${resource} is not among the fixture's types`);
  return found;
}

/** Opens a fresh store, runs `body`, then stops the caches, closes the storage and removes its directory. */
export function withStores(body: (f: StoreFixture) => Promise<void>): Promise<void> {
  return withTempStore({ writer: 'inline' }, async (storage) => {
    let now = NOW;
    let uids = 0;
    const registry = new Registry({
      storage,
      keys: new KeyLayout('/registry'),
      newCache: (prefix) => new Cacher<KubeObject>({ storage, prefix, decoder: decodeFromStorage }),
      strategyFor: (d) => strategyFor(d, deps),
      clock: () => now,
      newUid: () => `uid-${++uids}`,
    });
    try {
      await registry.start(DEFINITIONS);
      await body({
        storage,
        registry,
        store: (group, resource) => registry.storeFor(definitionOf(group, resource)),
        advance: (ms) => {
          now += ms;
        },
      });
    } finally {
      await registry.stop();
    }
  });
}

/** Where ConfigMap ns1/a is stored. */
export const CM_KEY = '/registry/configmaps/ns1/a';

/** A ConfigMap body as a client would send it. */
export function configMap(name: string, data: Record<string, string> = { k: 'v' }, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data };
}

/** A valid Deployment body. */
export function deployment(name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  const labels = { app: name };
  return {
    metadata: { name, ...extra },
    spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  };
}

/** A valid Pod body, scheduled to `nodeName` when given. */
export function pod(name: string, nodeName?: string): KubeObject {
  return { metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...(nodeName ? { nodeName } : {}) } };
}

/** The object as it is stored now (a consistent read of the storage), or undefined. */
export async function stored(f: StoreFixture, key: string): Promise<KubeObject | undefined> {
  const { kv } = await f.storage.get(key);
  return kv ? decodeFromStorage(kv) : undefined;
}

/** Asserts that `promise` fails with an ApiError of this code and reason, and this exact message (or one matching it). */
export async function rejectsWith(promise: Promise<unknown>, code: number, reason: string, message: string | RegExp): Promise<ApiError> {
  let caught: unknown;
  await promise.then(
    () => assert.fail(`expected ${code} ${reason}, but it succeeded`),
    (err: unknown) => {
      caught = err;
    },
  );
  assert.ok(caught instanceof ApiError, `expected an ApiError, got ${String(caught)}`);
  assert.deepEqual({ code: caught.code, reason: caught.reason }, { code, reason }, caught.message);
  if (typeof message === 'string') assert.equal(caught.message, message);
  else assert.match(caught.message, message);
  return caught;
}
