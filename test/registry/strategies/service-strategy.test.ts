import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../../../src/api/errors.js';
import type { KubeObject } from '../../../src/registry/object.js';
import type { Strategy } from '../../../src/registry/strategy.js';
import { createServiceAllocators } from '../../../src/registry/allocators/service-allocators.js';
import { SqliteStorage } from '../../../src/storage/sqlite/sqlite-storage.js';
import { ctx, messages, strategy, testDeps, updated } from './fixtures.js';
import { golden } from './golden.js';

const dataDir = await mkdtemp(join(tmpdir(), 'capstan-service-'));
const storage = await SqliteStorage.open({ dataDir, writer: 'inline' });
after(async () => {
  await storage.close();
  await rm(dataDir, { recursive: true, force: true });
});

let stores = 0;
/** A Service strategy with allocators on their own key prefix, and a way to list what is held. */
function services() {
  const storePrefix = `/svc${stores++}`;
  const allocators = createServiceAllocators({ storage, storePrefix, clusterIpRanges: ['10.0.0.0/24'], nodePortRange: { min: 30000, max: 32767 } });
  const held = async () => {
    const ips = (await storage.list(`${storePrefix}/capstan/serviceips/`)).kvs.map((kv) => kv.key.split('/').pop());
    const ports = (await storage.list(`${storePrefix}/capstan/servicenodeports/`)).kvs.map((kv) => Number(kv.key.split('/').pop()));
    return { ips, ports };
  };
  return { s: strategy('', 'services', testDeps({ allocators })), held };
}

/** Runs the create path as the store does: prepare, validate, reserve. */
async function create(s: Strategy, input: KubeObject, dryRun = false) {
  const object = structuredClone(input);
  const c = ctx({ dryRun });
  s.prepareForCreate(object, c);
  assert.deepEqual(s.validate(object, c), []);
  const reservation = await s.beginCreate!(object, c);
  return { object, reservation };
}

const s1: KubeObject = { metadata: { name: 's1', namespace: 'golden' }, spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 80 }] } };
const spec = (o: KubeObject) => o['spec'] as Record<string, unknown>;
const ports = (o: KubeObject) => spec(o)['ports'] as Record<string, unknown>[];

test('a NodePort service is defaulted field for field as the golden s1 (with its IP and port requested)', async () => {
  const { s, held } = services();
  const requested = structuredClone(s1);
  spec(requested)['clusterIP'] = '10.0.0.139';
  ports(requested)[0]!['nodePort'] = 31745;
  const { object, reservation } = await create(s, requested);
  await reservation.settle(true);
  const expected = golden('service-s1');
  assert.deepEqual(object['spec'], expected['spec']);
  assert.deepEqual(object['status'], expected['status']);
  assert.equal(object.metadata?.generation, undefined);
  assert.deepEqual(await held(), { ips: ['10.0.0.139'], ports: [31745] });
});

test('automatic values come from the upper bands of the ranges', async () => {
  const { s, held } = services();
  const { object, reservation } = await create(s, s1);
  await reservation.settle(true);
  const ip = spec(object)['clusterIP'] as string;
  const last = Number(ip.split('.')[3]);
  assert.ok(ip.startsWith('10.0.0.') && last >= 17 && last <= 254, ip);
  assert.deepEqual(spec(object)['clusterIPs'], [ip]);
  const nodePort = ports(object)[0]!['nodePort'] as number;
  assert.ok(nodePort >= 30086 && nodePort <= 32767, String(nodePort));
  assert.deepEqual(await held(), { ips: [ip], ports: [nodePort] });
});

test('taken and out-of-range requests fail with upstream messages and leak nothing', async () => {
  const { s, held } = services();
  const first = await create(s, { metadata: { name: 'a' }, spec: { type: 'NodePort', clusterIP: '10.0.0.5', ports: [{ port: 80, nodePort: 30000 }] } });
  await first.reservation.settle(true);
  const cases: [string, Record<string, unknown>, string][] = [
    ['ip taken', { clusterIP: '10.0.0.5', ports: [{ port: 80 }] },
      'spec.clusterIPs: Invalid value: ["10.0.0.5"]: failed to allocate IP 10.0.0.5: provided IP is already allocated'],
    ['ip out of range', { clusterIP: '10.1.0.5', ports: [{ port: 80 }] },
      'spec.clusterIPs: Invalid value: ["10.1.0.5"]: failed to allocate IP 10.1.0.5: the provided IP (10.1.0.5) is not in the valid range. The range of valid IPs is 10.0.0.0/24'],
    ['port taken', { type: 'NodePort', ports: [{ port: 80, nodePort: 30000 }] },
      'spec.ports[0].nodePort: Invalid value: 30000: provided port is already allocated'],
    ['port out of range', { type: 'NodePort', ports: [{ port: 80, nodePort: 40000 }] },
      'spec.ports[0].nodePort: Invalid value: 40000: provided port is not in the valid range. The range of valid ports is 30000-32767'],
  ];
  for (const [name, body, message] of cases) {
    await assert.rejects(create(s, { metadata: { name: 'b' }, spec: body }), (err: unknown) => {
      assert.ok(err instanceof ApiError, name);
      assert.equal(err.code, 422, name);
      assert.equal(err.message, `Service "b" is invalid: ${message}`, name);
      return true;
    });
  }
  assert.deepEqual(await held(), { ips: ['10.0.0.5'], ports: [30000] });
});

test('a failed write gives everything back; dry runs reserve nothing', async () => {
  const { s, held } = services();
  const failed = await create(s, s1);
  await failed.reservation.settle(false);
  assert.deepEqual(await held(), { ips: [], ports: [] });
  const dry = await create(s, s1, true);
  assert.ok(spec(dry.object)['clusterIP']);
  assert.ok(ports(dry.object)[0]!['nodePort']);
  await dry.reservation.settle(true);
  assert.deepEqual(await held(), { ips: [], ports: [] });
});

test('headless and ExternalName services allocate nothing', async () => {
  const { s, held } = services();
  const headless = await create(s, { metadata: { name: 'h' }, spec: { clusterIP: 'None', selector: { app: 'x' }, ports: [{ port: 80 }] } });
  assert.deepEqual(spec(headless.object)['clusterIPs'], ['None']);
  assert.deepEqual(spec(headless.object)['ipFamilies'], ['IPv4']);
  assert.equal(spec(headless.object)['ipFamilyPolicy'], 'SingleStack');
  const external = await create(s, { metadata: { name: 'e' }, spec: { type: 'ExternalName', externalName: 'example.com' } });
  assert.equal(spec(external.object)['clusterIP'], undefined);
  assert.equal(spec(external.object)['ipFamilies'], undefined);
  assert.equal(spec(external.object)['internalTrafficPolicy'], undefined);
  assert.deepEqual(await held(), { ips: [], ports: [] });
});

test('ports with one number and two protocols share a node port; LoadBalancers default their node-port allocation', async () => {
  const { s } = services();
  const { object } = await create(s, {
    metadata: { name: 'dns' },
    spec: { type: 'LoadBalancer', ports: [{ name: 'udp', port: 53, protocol: 'UDP' }, { name: 'tcp', port: 53 }] },
  });
  assert.equal(ports(object)[0]!['nodePort'], ports(object)[1]!['nodePort']);
  assert.equal(spec(object)['allocateLoadBalancerNodePorts'], true);
  assert.equal(spec(object)['externalTrafficPolicy'], 'Cluster');
});

test('updates keep allocated values, release what a type change drops, and refuse a new cluster IP', async () => {
  const { s, held } = services();
  const { object: stored, reservation } = await create(s, s1);
  await reservation.settle(true);
  const ip = spec(stored)['clusterIP'];
  const apply = async (body: KubeObject, commit = true) => {
    const next = updated(s, body, stored);
    const errors = messages(s.validateUpdate(next, stored, ctx()));
    if (errors.length > 0) return { next, errors };
    const r = await s.beginUpdate!(next, stored, ctx());
    await r.settle(commit);
    return { next, errors };
  };
  // The client's manifest without the allocated values: they are kept.
  const same = await apply(structuredClone(s1));
  assert.deepEqual(same.errors, []);
  assert.deepEqual(same.next['spec'], stored['spec']);

  const moved = await apply({ ...structuredClone(s1), spec: { ...spec(s1), clusterIP: '10.0.0.200' } });
  assert.deepEqual(moved.errors, ['spec.clusterIPs[0]: Invalid value: ["10.0.0.200"]: may not change once set']);

  const toClusterIP = await apply({ metadata: { name: 's1' }, spec: { type: 'ClusterIP', selector: { app: 'web' }, ports: [{ port: 80 }] } });
  assert.deepEqual(toClusterIP.errors, []);
  assert.equal(ports(toClusterIP.next)[0]!['nodePort'], undefined);
  assert.equal(spec(toClusterIP.next)['externalTrafficPolicy'], undefined);
  assert.deepEqual(await held(), { ips: [ip], ports: [] });

  const toExternal = await apply({ metadata: { name: 's1' }, spec: { type: 'ExternalName', externalName: 'example.com' } }, false);
  assert.equal(spec(toExternal.next)['clusterIP'], undefined);
  assert.deepEqual((await held()).ips, [ip], 'a failed update keeps the old IP');
});

test('afterDelete frees the IP and the node ports', async () => {
  const { s, held } = services();
  const { object, reservation } = await create(s, { ...s1, spec: { ...spec(s1), type: 'LoadBalancer', externalTrafficPolicy: 'Local' } });
  await reservation.settle(true);
  assert.ok(typeof spec(object)['healthCheckNodePort'] === 'number');
  assert.equal((await held()).ports.length, 2);
  await s.afterDelete!(object, { now: 0 });
  assert.deepEqual(await held(), { ips: [], ports: [] });
});

test('validation of services', () => {
  const { s } = services();
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['no ports', {}, ['spec.ports: Required value']],
    ['bad type', { type: 'Magic', ports: [{ port: 80 }] }, ['spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']],
    ['unnamed ports', { ports: [{ port: 80 }, { port: 81 }] }, ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value']],
    ['nodePort on ClusterIP', { ports: [{ port: 80, nodePort: 30001 }] }, ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]],
    ['bad IP', { clusterIP: '1.2.3', ports: [{ port: 80 }] }, ['spec.clusterIPs[0]: Invalid value: "1.2.3": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']],
    ['None for NodePort', { type: 'NodePort', clusterIP: 'None', ports: [{ port: 80 }] }, ["spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for NodePort services"]],
    ['dual stack', { ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] }, ['spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services']],
    ['ETP on ClusterIP', { externalTrafficPolicy: 'Local', ports: [{ port: 80 }] }, ['spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services']],
  ];
  for (const [name, body, expected] of cases) {
    const object: KubeObject = { metadata: { name: 'v' }, spec: body };
    s.prepareForCreate(object, ctx());
    assert.deepEqual(messages(s.validate(object, ctx())), expected, name);
  }
  assert.deepEqual(s.validateName('1abc', false), ['dns1035']);
});

test('without allocators no cluster IP is assigned', async () => {
  const s = strategy('', 'services');
  const { object } = await create(s, s1);
  assert.equal(spec(object)['clusterIP'], undefined);
});
