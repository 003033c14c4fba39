import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEPLOYMENT, PDB, POD, deployment, edited, pod, smp, type Json } from './smp-fixtures.js';

interface Case {
  name: string;
  definition?: string;
  current?: () => Json;
  patch: unknown;
  want: (d: Json) => void;
}

const mapCases: Case[] = [
  { name: 'merges labels', patch: { metadata: { labels: { version: 'v2' } } }, want: (d) => (d.metadata.labels.version = 'v2') },
  {
    name: 'merges annotations, null deleting one',
    patch: { metadata: { annotations: { note: null, owner: 'team-a' } } },
    want: (d) => (d.metadata.annotations = { owner: 'team-a' }),
  },
  { name: 'null deletes a whole map', patch: { metadata: { labels: null } }, want: (d) => delete d.metadata.labels },
  { name: 'null for a missing key changes nothing', patch: { metadata: { labels: { nope: null } }, spec: { nodeName: null } }, want: () => {} },
  { name: 'a scalar replaces a scalar', patch: { spec: { containers: [{ name: 'app', image: 'nginx:1.26' }] } }, want: (d) => (d.spec.containers[0].image = 'nginx:1.26') },
  { name: 'a new map is taken without its nulls', patch: { spec: { nodeSelector: { zone: 'a', gone: null } } }, want: (d) => (d.spec.nodeSelector = { zone: 'a' }) },
  {
    name: 'a new value drops maps carrying $patch, as upstream',
    patch: { spec: { securityContext: { $patch: 'replace', runAsUser: 1 }, hostname: 'h' } },
    want: (d) => (d.spec.hostname = 'h'),
  },
  { name: '$patch: replace replaces a map', patch: { metadata: { labels: { $patch: 'replace', only: 'x' } } }, want: (d) => (d.metadata.labels = { only: 'x' }) },
  { name: '$patch: delete empties a map', patch: { metadata: { annotations: { $patch: 'delete' } } }, want: (d) => (d.metadata.annotations = {}) },
  {
    name: 'a field with strategy replace is replaced (PodDisruptionBudget selector)',
    definition: PDB,
    current: () => ({ spec: { selector: { matchLabels: { a: '1' } }, minAvailable: 1 } }),
    patch: { spec: { selector: { matchExpressions: [{ key: 'b', operator: 'Exists' }] } } },
    want: (d) => (d.spec.selector = { matchExpressions: [{ key: 'b', operator: 'Exists' }] }),
  },
  { name: 'a value of another type replaces', patch: { metadata: { labels: 'x' } }, want: (d) => (d.metadata.labels = 'x') },
  { name: 'unknown fields are kept for the schema check', patch: { spec: { bogus: { a: 1 } } }, want: (d) => (d.spec.bogus = { a: 1 }) },
];

const listCases: Case[] = [
  {
    name: 'containers merge by name; an image change keeps the other fields',
    patch: { spec: { containers: [{ name: 'sidecar', image: 'busybox:2' }] } },
    want: (d) => (d.spec.containers[1].image = 'busybox:2'),
  },
  {
    name: 'a new container goes before the live ones, as upstream orders it',
    patch: { spec: { containers: [{ name: 'log', image: 'fluentd' }] } },
    want: (d) => d.spec.containers.unshift({ name: 'log', image: 'fluentd' }),
  },
  {
    name: '$patch: delete removes a container',
    patch: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } },
    want: (d) => d.spec.containers.splice(1, 1),
  },
  {
    name: '$patch: replace makes the other elements the list',
    patch: { spec: { containers: [{ $patch: 'replace' }, { name: 'only', image: 'x' }] } },
    want: (d) => (d.spec.containers = [{ name: 'only', image: 'x' }]),
  },
  {
    name: 'env merges by name',
    patch: { spec: { containers: [{ name: 'app', env: [{ name: 'LEVEL', value: 'debug' }, { name: 'NEW', value: '1' }] }] } },
    want: (d) => (d.spec.containers[0].env = [{ name: 'MODE', value: 'prod' }, { name: 'LEVEL', value: 'debug' }, { name: 'NEW', value: '1' }]),
  },
  {
    name: 'ports merge by containerPort',
    patch: { spec: { containers: [{ name: 'app', ports: [{ containerPort: 443, name: 'tls' }] }] } },
    want: (d) => (d.spec.containers[0].ports[1].name = 'tls'),
  },
  {
    name: 'a port is deleted by containerPort',
    patch: { spec: { containers: [{ name: 'app', ports: [{ containerPort: 80, $patch: 'delete' }] }] } },
    want: (d) => d.spec.containers[0].ports.shift(),
  },
  {
    name: 'a list without a patch strategy is replaced (args)',
    patch: { spec: { containers: [{ name: 'app', args: ['--port', '8080'] }] } },
    want: (d) => (d.spec.containers[0].args = ['--port', '8080']),
  },
  {
    name: 'an atomic list of maps is replaced (tolerations)',
    patch: { spec: { tolerations: [{ key: 'k2', operator: 'Exists' }] } },
    want: (d) => (d.spec.tolerations = [{ key: 'k2', operator: 'Exists' }]),
  },
  {
    name: 'list-type map without a patch strategy is replaced, as upstream (resources.claims)',
    current: () => edited(pod(), (d) => (d.spec.containers[0].resources = { claims: [{ name: 'gpu' }, { name: 'net' }] })),
    patch: { spec: { containers: [{ name: 'app', resources: { claims: [{ name: 'gpu', request: 'r' }] } }] } },
    want: (d) => (d.spec.containers[0].resources.claims = [{ name: 'gpu', request: 'r' }]),
  },
  {
    name: 'finalizers (merge, no key) are unioned, new values first',
    patch: { metadata: { finalizers: ['c.io/three', 'a.io/one'] } },
    want: (d) => (d.metadata.finalizers = ['c.io/three', 'a.io/one', 'b.io/two']),
  },
  {
    name: '$deleteFromPrimitiveList/finalizers removes values',
    patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['a.io/one', 'not.there'] } },
    want: (d) => (d.metadata.finalizers = ['b.io/two']),
  },
  {
    name: '$deleteFromPrimitiveList for a missing list does nothing',
    patch: { spec: { '$deleteFromPrimitiveList/imagePullSecrets': [{ name: 'x' }] } },
    want: () => {},
  },
  { name: 'an empty merge list leaves the live one', patch: { spec: { containers: [] } }, want: () => {} },
];

const orderCases: Case[] = [
  {
    name: '$setElementOrder/containers reorders the live list',
    patch: { spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }] } },
    want: (d) => d.spec.containers.reverse(),
  },
  {
    name: '$setElementOrder/containers with a change places the changed element',
    patch: { spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }], containers: [{ name: 'app', image: 'nginx:2' }] } },
    want: (d) => ((d.spec.containers[0].image = 'nginx:2'), d.spec.containers.reverse()),
  },
  {
    name: '$setElementOrder/containers places a new container where the order says',
    patch: { spec: { '$setElementOrder/containers': [{ name: 'app' }, { name: 'log' }, { name: 'sidecar' }], containers: [{ name: 'log', image: 'fluentd' }] } },
    want: (d) => d.spec.containers.splice(1, 0, { name: 'log', image: 'fluentd' }),
  },
  {
    name: '$setElementOrder/finalizers orders a primitive list',
    patch: { metadata: { '$setElementOrder/finalizers': ['b.io/two', 'a.io/one'] } },
    want: (d) => d.metadata.finalizers.reverse(),
  },
  {
    name: '$setElementOrder/env inside a merged container',
    patch: { spec: { containers: [{ name: 'app', '$setElementOrder/env': [{ name: 'LEVEL' }, { name: 'MODE' }] }] } },
    want: (d) => d.spec.containers[0].env.reverse(),
  },
];

const retainKeysCases: Case[] = [
  {
    name: '$retainKeys drops rollingUpdate when a Deployment strategy becomes Recreate',
    definition: DEPLOYMENT,
    current: deployment,
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
    want: (d) => (d.spec.strategy = { type: 'Recreate' }),
  },
  {
    name: 'without $retainKeys the strategy map merges',
    definition: DEPLOYMENT,
    current: deployment,
    patch: { spec: { strategy: { type: 'Recreate' } } },
    want: (d) => (d.spec.strategy.type = 'Recreate'),
  },
  {
    name: '$retainKeys lets a listed field be set to null',
    definition: DEPLOYMENT,
    current: deployment,
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null } } },
    want: (d) => (d.spec.strategy = { type: 'Recreate' }),
  },
  {
    name: '$retainKeys in a volume switches its source',
    patch: { spec: { volumes: [{ name: 'data', $retainKeys: ['configMap', 'name'], configMap: { name: 'cfg' } }] } },
    want: (d) => (d.spec.volumes = [{ name: 'data', configMap: { name: 'cfg' } }]),
  },
];

function run(cases: Case[]): void {
  for (const c of cases) {
    it(c.name, () => {
      const make = c.current ?? pod;
      const current = make();
      const result = smp(c.definition ?? POD, current, c.patch);
      assert.deepEqual(result.value, edited(make(), c.want));
      assert.deepEqual(result.strictErrors, []);
      assert.deepEqual(current, make(), 'the current object is not modified');
    });
  }
}

describe('strategic merge patch: maps', () => run(mapCases));
describe('strategic merge patch: lists', () => run(listCases));
describe('strategic merge patch: $setElementOrder', () => run(orderCases));
describe('strategic merge patch: $retainKeys', () => run(retainKeysCases));

describe('strategic merge patch: results', () => {
  it('shares nothing mutable with the current object', () => {
    const current = pod();
    const value = smp(POD, current, { metadata: { labels: { x: 'y' } } }).value as Json;
    value.metadata.annotations.changed = 'yes';
    value.spec.containers[1].image = 'changed';
    assert.deepEqual(current, pod());
  });

  it('a null body changes nothing, as upstream decodes it to a nil map', () => {
    assert.deepEqual(smp(POD, pod(), 'null').value, pod());
  });

  it('reports duplicate fields of the body as strict errors, keeping the last value', () => {
    const result = smp(POD, pod(), '{"metadata":{"labels":{"a":"1","a":"2"}}}');
    assert.deepEqual(result.strictErrors, ['duplicate field "metadata.labels.a"']);
    assert.equal((result.value as Json).metadata.labels.a, '2');
    assert.deepEqual(smp(POD, pod(), '{"metadata":{"labels":{"a":"1","a":"2"}}}', 'Ignore').strictErrors, []);
  });

  it('cannot reach a prototype through __proto__', () => {
    const value = smp(POD, pod(), '{"metadata":{"labels":{"__proto__":{"polluted":"yes"}}}}').value as Json;
    assert.equal(Object.getPrototypeOf(value.metadata.labels), Object.prototype);
    assert.deepEqual(Object.keys(value.metadata.labels), ['app', 'tier', '__proto__']);
    assert.equal(({} as Json)['polluted'], undefined);
  });
});
