/**
 * Which types the namespace controller cleans: upstream's deleteAllContent takes every namespaced
 * resource that discovery lists with the delete verb (discovery.SupportsAllVerbs{"delete"}), in each
 * of its versions; versions of one group and resource hold the same objects, so one is enough.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namespacedDefinitions } from '../../src/controllers/namespace-controller.js';
import { loadBuiltinCatalog } from '../../src/registry/catalog/builtin-catalog.js';

const catalog = loadBuiltinCatalog();
const all = catalog.groupVersions().flatMap((gv) => gv.resources);
const cleaned = namespacedDefinitions(all).map((d) => (d.group === '' ? d.resource : `${d.resource}.${d.group}`));

const CASES: { type: string; times: number; why: string }[] = [
  { type: 'configmaps', times: 1, why: 'namespaced, deletable' },
  { type: 'deployments.apps', times: 1, why: 'namespaced, deletable' },
  { type: 'horizontalpodautoscalers.autoscaling', times: 1, why: 'served as v1 and v2, cleaned once' },
  { type: 'bindings', times: 0, why: 'create only' },
  { type: 'localsubjectaccessreviews.authorization.k8s.io', times: 0, why: 'create only' },
  { type: 'namespaces', times: 0, why: 'cluster-scoped' },
  { type: 'nodes', times: 0, why: 'cluster-scoped' },
];

for (const c of CASES) {
  test(`${c.type}: ${c.times === 0 ? 'not cleaned' : 'cleaned once'} (${c.why})`, () => {
    assert.equal(cleaned.filter((t) => t === c.type).length, c.times);
  });
}

test('every namespaced type with the delete verb is cleaned', () => {
  const deletable = new Set(all.filter((d) => d.namespaced && d.verbs.includes('delete')).map((d) => (d.group === '' ? d.resource : `${d.resource}.${d.group}`)));
  assert.deepEqual(new Set(cleaned), deletable);
});
