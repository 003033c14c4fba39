import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadBuiltinCatalog } from '../../src/registry/catalog/builtin-catalog.js';
import { loadBuiltinSchemas } from '../../src/registry/schema/schema-set.js';
import { OpenApiDocuments } from '../../src/openapi/openapi-documents.js';
import { operationId, operationTag } from '../../src/openapi/operation-names.js';

type Json = Record<string, any>;

const catalog = loadBuiltinCatalog();
const schemas = loadBuiltinSchemas();
let schemaLoads = 0;
const docs = new OpenApiDocuments(catalog, () => { schemaLoads++; return schemas; }, 'v1.35.0');

/** Every $ref in a document, to check that each names a definition the document has. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (k === '$ref' && typeof v === 'string') out.push(v); else refs(v, out);
  }
  return out;
}

test('nothing is built before it is asked for', () => {
  const lazy = new OpenApiDocuments(catalog, () => { throw new Error('schemas loaded too early'); }, 'v1.35.0');
  assert.ok(lazy.v3Paths().includes('api/v1'));
});

test('the v3 index points at every served group-version with a hash', () => {
  const index = JSON.parse(docs.v3Index().body.toString()) as { paths: Record<string, { serverRelativeURL: string }> };
  assert.match(index.paths['api/v1']?.serverRelativeURL ?? '', /^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
  assert.ok(index.paths['apis/apps/v1']);
  assert.ok(index.paths['apis/resource.k8s.io/v1']);
  assert.equal(index.paths['apis/resource.k8s.io/v1beta2'], undefined);
  const hash = index.paths['apis/apps/v1']!.serverRelativeURL.split('hash=')[1];
  assert.equal(docs.v3('apis/apps/v1')?.hash, hash);
  assert.equal(docs.v3('apis/nope/v1'), undefined);
});

test('the apps/v1 document has the kinds kubectl explain looks for, with no prose', () => {
  const doc = JSON.parse(docs.v3('apis/apps/v1')!.body.toString()) as Json;
  assert.equal(doc.openapi, '3.0.0');
  const deployment = doc.components.schemas['io.k8s.api.apps.v1.Deployment'];
  assert.deepEqual(deployment['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
  assert.deepEqual(deployment.properties.spec, { $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec' });
  const containers = doc.components.schemas['io.k8s.api.core.v1.PodSpec'].properties.containers;
  assert.equal(containers['x-kubernetes-patch-merge-key'], 'name');
  assert.equal(containers['x-kubernetes-patch-strategy'], 'merge');
  assert.equal(containers['x-kubernetes-list-type'], 'map');
  assert.deepEqual(containers['x-kubernetes-list-map-keys'], ['name']);
  const descriptions = new Set([...docs.v3('apis/apps/v1')!.body.toString().matchAll(/"description":"([^"]*)"/g)].map((m) => m[1]));
  assert.deepEqual([...descriptions].sort(), ['Accepted', 'Created', 'OK', 'Unauthorized'], 'only HTTP status texts');
  const defined = new Set(Object.keys(doc.components.schemas).map((n) => `#/components/schemas/${n}`));
  for (const ref of refs(doc)) assert.ok(defined.has(ref), `dangling ${ref}`);
});

test('paths carry x-kubernetes-action and the group-version-kind', () => {
  const doc = JSON.parse(docs.v3('api/v1')!.body.toString()) as Json;
  const pods = doc.paths['/api/v1/namespaces/{namespace}/pods'];
  assert.equal(pods.get.operationId, 'listCoreV1NamespacedPod');
  assert.equal(pods.get['x-kubernetes-action'], 'list');
  assert.deepEqual(pods.get['x-kubernetes-group-version-kind'], { group: '', kind: 'Pod', version: 'v1' });
  assert.equal(pods.post.operationId, 'createCoreV1NamespacedPod');
  assert.equal(pods.delete.operationId, 'deleteCoreV1CollectionNamespacedPod');
  const eviction = doc.paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction'];
  assert.deepEqual(eviction.post['x-kubernetes-group-version-kind'], { group: 'policy', kind: 'Eviction', version: 'v1' });
  const exec = doc.paths['/api/v1/namespaces/{namespace}/pods/{name}/exec'];
  assert.equal(exec.get['x-kubernetes-action'], 'connect');
  assert.equal(exec.post.operationId, 'connectCoreV1PostNamespacedPodExec');
  assert.ok(doc.paths['/api/v1/watch/namespaces/{namespace}/pods/{name}'].get);
  assert.equal(doc.paths['/api/v1/pods'].get.operationId, 'listCoreV1PodForAllNamespaces');
  assert.equal(doc.paths['/api/v1/namespaces/{name}/finalize'].put.operationId, 'replaceCoreV1NamespaceFinalize');
});

test('operation ids and tags follow upstream naming', () => {
  assert.equal(operationId('patch', 'apps', 'v1', 'Deployment', 'Namespaced', 'scale'), 'patchAppsV1NamespacedDeploymentScale');
  assert.equal(operationId('watchlist', 'rbac.authorization.k8s.io', 'v1', 'ClusterRole', ''), 'watchRbacAuthorizationV1ClusterRoleList');
  assert.equal(operationTag('flowcontrol.apiserver.k8s.io', 'v1'), 'flowcontrolApiserver_v1');
});

test('swagger 2.0 has every served definition with refs into #/definitions', () => {
  const doc = JSON.parse(docs.v2().body.toString()) as Json;
  assert.equal(doc.swagger, '2.0');
  assert.equal(doc.info.version, 'v1.35.0');
  assert.ok(doc.definitions['io.k8s.api.core.v1.Pod']);
  assert.deepEqual(doc.definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString'], { type: 'string', format: 'int-or-string' });
  const defined = new Set(Object.keys(doc.definitions).map((n) => `#/definitions/${n}`));
  for (const ref of refs(doc)) assert.ok(defined.has(ref), `dangling ${ref}`);
  assert.equal(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments'].post.parameters[0].in, 'body');
});

test('documents are built once', () => {
  const loadsBefore = schemaLoads;
  assert.equal(docs.v3('api/v1'), docs.v3('api/v1'));
  assert.equal(docs.v2(), docs.v2());
  assert.ok(schemaLoads - loadsBefore <= 1);
});
